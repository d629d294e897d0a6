// A proposal (the tolerant pass's group, status proposed) is no match: its members are still
// the person's to decide. match_members holds pairs and groups alike; only groups have a status.

/** SQL: member `m` (of match_members) is in a pair or a group that is not a proposal. */
export const notProposed = (m: string, schema?: string) =>
  `NOT EXISTS (SELECT 1 FROM ${schema === undefined ? "" : `${schema}.`}match_groups g
    WHERE g.match_id = ${m}.match_id AND g.status = 'proposed')`;
