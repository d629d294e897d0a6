// The totals of the stored results — provider items, ledger entries, exact pairs, groups per
// pass — kept as the results are written, so an incremental run reports them without counting
// a million records: match_totals holds the pairs' count and the leftovers' (match_leftovers:
// the provider items and entries the exact pass left alone, which with the pairs are every
// record of the runs that wrote the results, as a full run counts them from run_records),
// match_pass_totals the groups of each pass and the cash legs.
import { type KeyBounds, mayHold } from "./incremental/key-bounds";
import { deleteProbed } from "./incremental/scope-sql";
import type { Statement } from "./statement";

/**
 * Writes the totals with the results. A full run replaces them (`exactPairs`: its own count of
 * pairs, which the stored pairs now are; the leftovers it wrote); an incremental run replaces
 * its scope's leftovers and adds what its pair changes (pair_changes) added and dropped and what
 * its leftovers' writes deleted and added; it looks up the leftovers of a key or entry only
 * within the ranges of stored leftovers (`scope`, key-bounds.ts).
 */
export function totalsStatements(opts: {
  scope: KeyBounds | undefined;
  exactPairs: number;
}): Statement[] {
  const leftovers: Statement = {
    name: "add leftovers",
    text: `INSERT INTO match_leftovers (side, ref)
      SELECT 'provider', ref FROM provider_leftovers
      UNION ALL SELECT 'ledger', entry_id FROM ledger_leftovers`,
  };
  const added = {
    provider: "(SELECT count(*) FROM provider_leftovers)",
    ledger: "(SELECT count(*) FROM ledger_leftovers)",
  };
  const { scope } = opts;
  if (!scope)
    return [
      { name: "drop leftovers", text: "TRUNCATE match_leftovers" },
      leftovers,
      { name: "drop totals", text: "DELETE FROM match_totals" },
      {
        name: "totals",
        text: `INSERT INTO match_totals (exact_pairs, provider_leftovers, ledger_leftovers)
          VALUES (${Math.trunc(opts.exactPairs)}, ${added.provider}, ${added.ledger})`,
      },
    ];
  const dropped = (side: "provider" | "ledger", outer: string, id: string) =>
    `WITH gone AS (${deleteProbed({
      outer,
      table: "match_leftovers",
      where: `x.side = '${side}' AND x.ref = ${id} COLLATE "C"`,
      guard: mayHold(scope, `leftover:${side}`, id),
    })} RETURNING 1)
    UPDATE match_totals SET ${side}_leftovers = ${side}_leftovers - (SELECT count(*) FROM gone)`;
  return [
    {
      name: "drop leftovers of the scope",
      text: dropped("provider", "scope_keys s", "s.k"),
    },
    {
      name: "drop leftover entries of the scope",
      text: dropped("ledger", "scope_entries s", "s.entry_id"),
    },
    leftovers,
    {
      // A changed pair is one row with both sides: one dropped, one added.
      name: "totals",
      text: `UPDATE match_totals
        SET exact_pairs = exact_pairs + (SELECT count(kind) - count(stored_kind) FROM pair_changes),
          provider_leftovers = provider_leftovers + ${added.provider},
          ledger_leftovers = ledger_leftovers + ${added.ledger}`,
    },
  ];
}

/**
 * `write`, a DELETE (`sign` -1) or INSERT (1) of match groups or members returning the pass its
 * row counts under (null: none), with match_pass_totals moved by what it wrote.
 */
export function countedByPass(write: string, sign: 1 | -1): string {
  return `WITH written AS (${write})
    INSERT INTO match_pass_totals AS t (pass, groups)
    SELECT pass, ${sign} * count(*) FROM written WHERE pass IS NOT NULL GROUP BY pass
    ON CONFLICT (pass) DO UPDATE SET groups = t.groups + excluded.groups`;
}

/** A full run's pass totals, counted from the groups it has written. */
export const passTotals: Statement[] = [
  { name: "drop pass totals", text: "DELETE FROM match_pass_totals" },
  {
    // Cash legs by count(*): the members' key (side, record_kind, record_ref) holds each
    // posting once.
    name: "pass totals",
    text: `INSERT INTO match_pass_totals (pass, groups)
      SELECT pass, count(*) FROM match_groups GROUP BY pass
      UNION ALL SELECT 'cash_leg', count(*) FROM match_group_members
        WHERE side = 'cash' HAVING count(*) > 0`,
  },
];

/** provider_items, ledger_entries and exact of the stored results, one row. */
export const STORED_TOTALS = `SELECT exact_pairs + provider_leftovers AS provider_items,
    exact_pairs + ledger_leftovers AS ledger_entries, exact_pairs AS exact FROM match_totals`;

/** The match groups per pass and the cash legs of the stored results, as (pass, n). */
export const STORED_PASSES = `SELECT pass, groups AS n FROM match_pass_totals WHERE groups > 0
  ORDER BY pass`;

/** True when the stored results have their totals (match tables emptied by hand or by a restore leave none). */
export const HAS_TOTALS = "EXISTS (SELECT 1 FROM match_totals)";
