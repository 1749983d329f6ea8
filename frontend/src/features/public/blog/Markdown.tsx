import type { ReactNode } from 'react';

/** **bold** within a line, as React nodes (never as HTML). */
function inline(text: string): ReactNode[] {
  return text
    .split(/(\*\*[^*]+\*\*)/g)
    .map((part, i) =>
      part.startsWith('**') && part.endsWith('**') && part.length > 4 ? <strong key={i}>{part.slice(2, -2)}</strong> : part,
    );
}

/**
 * The small Markdown our posts use: blank-line separated blocks; `## ` headings (rendered as h2),
 * `- ` list items, paragraphs, and **bold**. Text is rendered as text, so a post cannot inject HTML.
 */
export function Markdown({ source }: { source: string }) {
  const blocks = source
    .trim()
    .split(/\n\s*\n/)
    .map((b) => b.trim())
    .filter(Boolean);
  return (
    <>
      {blocks.map((block, i) => {
        if (block.startsWith('## ')) return <h2 key={i}>{inline(block.slice(3))}</h2>;
        const lines = block.split('\n');
        if (lines.every((l) => l.startsWith('- ')))
          return (
            <ul key={i}>
              {lines.map((l, j) => (
                <li key={j}>{inline(l.slice(2))}</li>
              ))}
            </ul>
          );
        return <p key={i}>{inline(lines.join(' '))}</p>;
      })}
    </>
  );
}
