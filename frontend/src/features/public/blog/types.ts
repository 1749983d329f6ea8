/** A blog post kept as a content file in this folder (Markdown body: paragraphs, ## headings, - lists, **bold**). */
export interface BlogPost {
  slug: string;
  title: string;
  /** YYYY-MM-DD */
  date: string;
  author: string;
  summary: string;
  body: string;
}
