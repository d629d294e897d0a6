// The two ways the scope grows: it looks records up (probe: an index probe per frontier row)
// and adds what it does not hold yet (addNew).

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
  /** A condition on the frontier row: only the rows meeting it are probed (key-bounds.ts). */
  guard?: string;
}): string {
  const conditions = [
    ...(opts.round === null ? [] : [`s.round = ${opts.round}`]),
    ...(opts.guard === undefined ? [] : [opts.guard]),
  ];
  const where = conditions.length > 0 ? ` WHERE ${conditions.join(" AND ")}` : "";
  return `SELECT ${opts.select} FROM ${opts.outer} CROSS JOIN LATERAL (SELECT * FROM ${opts.table} x
      WHERE ${opts.where} OFFSET 0) x${where}`;
}

/**
 * DELETE of the rows of `table` (x) that `where` finds per row of `outer` (s) meeting `guard`, as
 * `probe` finds them, those `stale` holds if given. The rows are deleted by their ctid (a TID
 * scan): a DELETE joining the scope to the table lets the planner hash the whole table, whose
 * rows are the history's, to delete the scope's few.
 */
export function deleteProbed(opts: {
  outer: string;
  table: string;
  where: string;
  stale?: string;
  guard?: string;
}): string {
  const conditions = [opts.stale, opts.guard].filter((c): c is string => c !== undefined);
  const where = conditions.length > 0 ? ` WHERE ${conditions.join(" AND ")}` : "";
  return `DELETE FROM ${opts.table} WHERE ctid = ANY (ARRAY(SELECT x.row_id FROM ${opts.outer}
      CROSS JOIN LATERAL (SELECT ctid AS row_id, * FROM ${opts.table} x WHERE ${opts.where} OFFSET 0) x${where}))`;
}

/** The scope's tables and the column each is keyed by. */
const SCOPE_IDS = {
  scope_keys: "k",
  scope_entries: "entry_id",
  scope_groups: "match_id",
  scope_breaks: "break_id",
} as const;

/**
 * INSERT of `rows` (a query of two columns: the id, the round) whose id `table` does not hold
 * yet; `rows` must not repeat an id (a UNION, a DISTINCT or a key). An anti-join rather than ON
 * CONFLICT DO NOTHING: most rows a round finds are already in the scope (the frontier's
 * neighbours lead back to it), and a conflicting insert costs a third of a scope statement.
 */
export function addNew(table: keyof typeof SCOPE_IDS, rows: string): string {
  const id = SCOPE_IDS[table];
  return `INSERT INTO ${table} (${id}, round) SELECT n.id, n.round FROM (${rows}) n(id, round)
    WHERE NOT EXISTS (SELECT 1 FROM ${table} o WHERE o.${id} = n.id)`;
}
