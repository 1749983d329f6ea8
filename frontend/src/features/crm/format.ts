const count = new Intl.NumberFormat('en-GB');

/** 200000 → '200,000'. */
export const formatCount = (n: number | null | undefined) => count.format(n ?? 0);
