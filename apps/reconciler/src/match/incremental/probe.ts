// The one way the scope looks records up: an index probe per frontier row.

/**
 * `select` over each row of `outer` (a frontier table aliased s, with its round) and the rows of
 * `table` (aliased x) that `where` finds by an index. The lookup is a LATERAL subquery behind
 * OFFSET 0, so the planner keeps it one index probe per frontier row: the frontier is small, but
 * the planner cannot know it (or the stored tables are not yet analysed) and would otherwise scan
 * or hash a million rows per lookup.
 */
export function probe(opts: {
  outer: string;
  round: number | null;
  table: string;
  where: string;
  select: string;
}): string {
  const round = opts.round === null ? "" : ` WHERE s.round = ${opts.round}`;
  return `SELECT ${opts.select} FROM ${opts.outer} CROSS JOIN LATERAL (SELECT * FROM ${opts.table} x
      WHERE ${opts.where} OFFSET 0) x${round}`;
}
