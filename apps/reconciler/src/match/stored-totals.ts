// The totals of the stored results — provider items, ledger entries, exact pairs — kept as the
// results are written, so an incremental run reports them without counting a million records:
// match_totals holds the pairs' count, match_leftovers the records no exact pair holds (the
// provider items and entries the exact pass left alone). Pairs and leftovers together are every
// record of the runs that wrote the results, as a full run counts them from run_records.
import { deleteProbed } from "./incremental/scope-sql";
import type { Statement } from "./statement";

/**
 * Writes the totals with the results. A full run replaces them (`exactPairs`: its own count of
 * pairs, which the stored pairs now are); an incremental run replaces its scope's leftovers and
 * adds what its pair changes (pair_changes) added and dropped.
 */
export function totalsStatements(opts: { scoped: boolean; exactPairs: number }): Statement[] {
  const leftovers: Statement = {
    name: "add leftovers",
    text: `INSERT INTO match_leftovers (side, ref)
      SELECT 'provider', ref FROM provider_leftovers
      UNION ALL SELECT 'ledger', entry_id FROM ledger_leftovers`,
  };
  if (!opts.scoped)
    return [
      { name: "drop leftovers", text: "TRUNCATE match_leftovers" },
      leftovers,
      { name: "drop totals", text: "DELETE FROM match_totals" },
      {
        name: "pair total",
        text: `INSERT INTO match_totals (exact_pairs) VALUES (${Math.trunc(opts.exactPairs)})`,
      },
    ];
  return [
    {
      name: "drop leftovers of the scope",
      text: deleteProbed({
        outer: "scope_keys s",
        table: "match_leftovers",
        where: `x.side = 'provider' AND x.ref = s.k COLLATE "C"`,
      }),
    },
    {
      name: "drop leftover entries of the scope",
      text: deleteProbed({
        outer: "scope_entries s",
        table: "match_leftovers",
        where: "x.side = 'ledger' AND x.ref = s.entry_id",
      }),
    },
    leftovers,
    {
      // A changed pair is one row with both sides: one dropped, one added.
      name: "pair total",
      text: `UPDATE match_totals
        SET exact_pairs = exact_pairs + (SELECT count(kind) - count(stored_kind) FROM pair_changes)`,
    },
  ];
}

/** provider_items, ledger_entries and exact of the stored results, one row. */
export const STORED_TOTALS = `SELECT t.exact_pairs + l.provider AS provider_items,
    t.exact_pairs + l.ledger AS ledger_entries, t.exact_pairs AS exact
  FROM match_totals t CROSS JOIN (SELECT count(*) FILTER (WHERE side = 'provider') AS provider,
    count(*) FILTER (WHERE side = 'ledger') AS ledger FROM match_leftovers) l`;

/** True when the stored results have their totals (match tables emptied by hand or by a restore leave none). */
export const HAS_TOTALS = "EXISTS (SELECT 1 FROM match_totals)";
