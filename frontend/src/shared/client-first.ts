/** A table column as antd describes it: found by its key or its dataIndex. */
interface ColumnLike {
  key?: unknown;
  dataIndex?: unknown;
}

/**
 * At 390 px every list shows the client's name first (issue 26): on a narrow screen the column named
 * `client` (its key or dataIndex) moves to the front, the others keep their order. Wide screens keep
 * the order the table chose.
 */
export function clientFirst<C extends ColumnLike>(columns: readonly C[], narrow: boolean, client: string): C[] {
  if (!narrow) return [...columns];
  const isClient = (c: C) => c.key === client || c.dataIndex === client;
  const found = columns.find(isClient);
  return found ? [found, ...columns.filter((c) => !isClient(c))] : [...columns];
}
