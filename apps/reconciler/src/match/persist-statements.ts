// Writing a run's results over the stored ones: only the differences are written. Exact pairs
// are diffed in one hash join against match_pairs (a rerun over unchanged data writes nothing),
// match groups and break records by their keys, breaks upserted by their stable id.
import { getTableConfig } from "drizzle-orm/pg-core";
import { matchPairs } from "../db/schema";
import type { KeyBounds } from "./incremental/key-bounds";
import { deleteProbed } from "./incremental/scope-sql";
import type { ResolvedMatchOptions } from "./match-options";
import { paired } from "./passes/exact";
import { fullyAnalyzed } from "./planner-settings";
import { literals, type Statement } from "./statement";
import { countedByPass, passTotals, totalsStatements } from "./stored-totals";

/**
 * Adds the rows of `source` whose key `table` does not hold yet. They are gathered first, apart
 * from the INSERT: an INSERT that anti-joins the table it fills would rescan its own new rows
 * (quadratic when the table starts empty and the planner loops over it). `reach.probe` makes
 * the lookup one index probe per row.
 */
function addMissing(
  what: string,
  table: string,
  columns: string,
  source: string,
  key: readonly string[],
  reach: Reach,
  /** The pass each added row counts under in match_pass_totals (incremental runs). */
  countedAs?: string,
): Statement[] {
  const scratch = `${table}_to_add`;
  const same = key.map((c) => `o.${c} = n.${c}`).join(" AND ");
  const add = `INSERT INTO ${table} (${columns}) SELECT ${columns} FROM ${scratch}`;
  return [
    {
      name: `${what} to add`,
      text: `CREATE TEMP TABLE ${scratch} ON COMMIT DROP AS
        SELECT ${columns} FROM ${source} n
        WHERE NOT EXISTS (SELECT 1 FROM ${table} o WHERE ${same}${reach.probe})`,
    },
    {
      name: `add ${what}`,
      text: countedAs ? countedByPass(`${add} RETURNING ${countedAs} AS pass`, 1) : add,
    },
  ];
}

/**
 * What an incremental run may change of the stored results: the stored rows its scope holds
 * (incremental/scope.ts). The rows of a full run's table are all of them.
 */
interface Reach {
  /** Appended to a NOT EXISTS into a stored table: OFFSET 0 keeps it a probe per row. */
  probe: string;
  /** The stored pairs the run diffs its own against. */
  pairs: string;
  /** The stored groups and members the run may drop: all of them when undefined. */
  groups: ScopeRows | undefined;
  /** Conditions on the stored breaks (alias t) and break records (alias o) the run may change. */
  breaks: string;
  breakRecords: string;
}

const IN_SCOPE: Reach = {
  // The scope's rows are few and the stored table holds the whole history: the planner costs an
  // index probe per row above a scan, and hashed every stored member to add a few thousand
  // (members to add: 36 ms at 500,000 card records, 119 ms at 1,000,000). OFFSET 0 keeps the
  // NOT EXISTS a subquery run per row, by the table's key.
  probe: " OFFSET 0",
  pairs: "scope_pairs",
  groups: { outer: "scope_groups s", where: "x.match_id = s.match_id" },
  breaks: " AND t.break_id IN (SELECT break_id FROM scope_breaks)",
  breakRecords: " AND o.break_id IN (SELECT break_id FROM scope_breaks)",
};
const ALL: Reach = {
  probe: "",
  pairs: "match_pairs",
  groups: undefined,
  breaks: "",
  breakRecords: "",
};

/** The stored rows of a table the scope holds: found per row of `outer` (s) by `where` (x). */
type ScopeRows = { outer: string; where: string };

/**
 * Deletes the stored rows of `table` that `stale` (a condition on the alias it is given) holds;
 * an incremental run's delete moves match_pass_totals by the pass each row counts under
 * (`countedAs`). A full run counts them anew (passTotals).
 */
function dropStale(
  table: string,
  stale: (o: string) => string,
  scope: ScopeRows | undefined,
  countedAs: string,
) {
  return scope
    ? countedByPass(
        `${deleteProbed({ ...scope, table, stale: stale("x") })} RETURNING ${countedAs} AS pass`,
        -1,
      )
    : `DELETE FROM ${table} o WHERE ${stale("o")}`;
}

/** The pass a group counts under, and a member (a cash leg only). */
const GROUP_PASS = "pass";
const MEMBER_PASS = "CASE WHEN side = 'cash' THEN 'cash_leg' END";

/** The run's exact pairs: every pair of run_records into match_pairs, or only what changed. */
function pairStatements(run: string, fresh: boolean, reach: Reach): Statement[] {
  const columns = "record_kind, record_ref, entry_id, amount, currency, first_run_id";
  if (fresh) {
    // Nothing stored yet (first run, or after the match tables were emptied): a million
    // pairs go in faster without their key, which is then built once, sorted, instead of entry
    // by entry (and still refuses a record in two pairs). Name and columns come from the schema.
    const [key] = getTableConfig(matchPairs).primaryKeys;
    if (!key) throw new Error("match_pairs has no primary key in the schema");
    return [
      { name: "pair key off", text: `ALTER TABLE match_pairs DROP CONSTRAINT ${key.getName()}` },
      {
        name: "add pairs",
        text: `INSERT INTO match_pairs (${columns})
          SELECT kind, item_ref, entry_id, amount, currency, ${run} FROM run_records x WHERE ${paired("x")}`,
      },
      {
        name: "pair key",
        text: `ALTER TABLE match_pairs ADD CONSTRAINT ${key.getName()}
          PRIMARY KEY (${key.columns.map((c) => c.name).join(", ")})`,
      },
      // Statistics now rather than when autovacuum comes by: until then the planner takes the
      // freshly filled table for empty, and finance queries joining the match views crawl.
      ...fullyAnalyzed("pair statistics", "match_pairs"),
    ];
  }
  return [
    {
      // Pairs that are new, gone or changed (another entry, amount or currency), in one join.
      name: "pair changes",
      text: `CREATE TEMP TABLE pair_changes ON COMMIT DROP AS
        SELECT t.record_kind AS stored_kind, t.record_ref AS stored_ref, n.kind, n.item_ref,
          n.entry_id, n.amount, n.currency
        FROM (SELECT kind, item_ref, entry_id, amount, currency FROM run_records x WHERE ${paired("x")}) n
        FULL JOIN ${reach.pairs} t ON t.record_kind = n.kind AND t.record_ref = n.item_ref
        WHERE t.record_kind IS NULL OR n.kind IS NULL OR t.entry_id <> n.entry_id
          OR t.amount <> n.amount OR t.currency <> n.currency`,
      // Counted before the DELETE below joins it to match_pairs: unanalysed, a few thousand
      // changes looked like any number, and the delete scanned every stored pair.
      analyze: "pair_changes",
    },
    {
      // In a scope, a probe per stored pair changed: the planner, told that most changes are
      // new pairs (no stored pair), still costed a probe for each above hashing every stored
      // pair (210 ms at 500,000 card records, for none to delete).
      name: "drop old pairs",
      text: reach.groups
        ? deleteProbed({
            outer: "pair_changes s",
            table: "match_pairs",
            where: "x.record_kind = s.stored_kind AND x.record_ref = s.stored_ref",
            guard: "s.stored_kind IS NOT NULL",
          })
        : `DELETE FROM match_pairs t USING pair_changes c
        WHERE t.record_kind = c.stored_kind AND t.record_ref = c.stored_ref`,
    },
    {
      name: "add pairs",
      text: `INSERT INTO match_pairs (${columns})
        SELECT kind, item_ref, entry_id, amount, currency, ${run} FROM pair_changes WHERE kind IS NOT NULL`,
    },
  ];
}

/** The run's match groups (chains, gross operations, proposals) and cash legs, from run_members. */
function groupStatements(run: string, reach: Reach): Statement[] {
  const groups = `(SELECT match_id, min(pass) AS pass, min(status) AS status, min(currency) AS currency,
      coalesce(sum(amount) FILTER (WHERE side = 'provider'), 0) AS provider_amount,
      coalesce(sum(amount) FILTER (WHERE side = 'ledger'), 0) AS ledger_amount, ${run} AS first_run_id
    FROM run_members WHERE pass <> 'cash_leg' GROUP BY match_id)`;
  return [
    {
      name: "drop old members",
      text: dropStale(
        "match_group_members",
        (o) => `NOT EXISTS (SELECT 1 FROM run_members n
        WHERE n.side = ${o}.side AND n.record_kind = ${o}.record_kind AND n.record_ref = ${o}.record_ref
          AND n.match_id = ${o}.match_id AND n.amount = ${o}.amount AND n.currency = ${o}.currency)`,
        reach.groups,
        MEMBER_PASS,
      ),
    },
    {
      name: "drop old groups",
      text: dropStale(
        "match_groups",
        (o) => `NOT EXISTS (SELECT 1 FROM ${groups} n
        WHERE n.match_id = ${o}.match_id AND n.pass = ${o}.pass AND n.status = ${o}.status
          AND n.currency = ${o}.currency AND n.provider_amount = ${o}.provider_amount
          AND n.ledger_amount = ${o}.ledger_amount)`,
        reach.groups,
        GROUP_PASS,
      ),
    },
    ...addMissing(
      "groups",
      "match_groups",
      "match_id, pass, status, currency, provider_amount, ledger_amount, first_run_id",
      groups,
      ["match_id"],
      reach,
      reach.groups && GROUP_PASS,
    ),
    ...addMissing(
      "members",
      "match_group_members",
      "match_id, side, record_kind, record_ref, amount, currency",
      "run_members",
      ["side", "record_kind", "record_ref"],
      reach,
      reach.groups && MEMBER_PASS,
    ),
    ...(reach.groups ? [] : passTotals),
  ];
}

/** Breaks upserted by their stable id, the ones no longer found resolved, and their records. */
function breakStatements(o: ResolvedMatchOptions, run: string, reach: Reach): Statement[] {
  const v = literals(o);
  return [
    {
      // A break seen again keeps its row (and id); a new one is added; a resolved one reopens.
      name: "upsert breaks",
      text: `INSERT INTO breaks AS t (break_id, break_key, class, priority, status, record_kind,
          provider_ref, entry_id, currency, amount, provider_amount, ledger_amount, detail, occurred_at,
          first_seen_at, opened_at, last_seen_at, first_run_id, last_run_id, entity)
        SELECT break_id, break_key, class, priority, status, record_kind, provider_ref, entry_id, currency,
          amount, provider_amount, ledger_amount, detail, occurred_at, ${v.asOf},
          CASE WHEN status = 'open' THEN ${v.asOf} END, ${v.asOf}, ${run}, ${run}, entity
        FROM run_breaks
        ON CONFLICT (break_id) DO UPDATE SET
          previous_class = CASE WHEN t.class <> excluded.class THEN t.class ELSE t.previous_class END,
          class = excluded.class, priority = excluded.priority, status = excluded.status,
          record_kind = excluded.record_kind, provider_ref = excluded.provider_ref,
          entry_id = excluded.entry_id, currency = excluded.currency, amount = excluded.amount,
          provider_amount = excluded.provider_amount, ledger_amount = excluded.ledger_amount,
          detail = excluded.detail, occurred_at = excluded.occurred_at, entity = excluded.entity,
          opened_at = CASE WHEN excluded.status = 'open' AND (t.status <> 'open' OR t.opened_at IS NULL)
            THEN excluded.last_seen_at WHEN excluded.status = 'open' THEN t.opened_at END,
          last_seen_at = excluded.last_seen_at, last_run_id = excluded.last_run_id,
          resolved_at = NULL, resolved_run_id = NULL`,
    },
    {
      name: "resolve breaks",
      text: `UPDATE breaks t SET status = 'resolved', resolved_at = ${v.asOf}, resolved_run_id = ${run}
        WHERE t.status <> 'resolved' AND NOT EXISTS (SELECT 1 FROM run_breaks b WHERE b.break_id = t.break_id)${reach.breaks}`,
    },
    {
      // With the card of the records the tolerant pass could pair: unpaired card transactions
      // and entries (provider_leftovers, ledger_leftovers: small tables).
      name: "break records",
      text: `CREATE TEMP TABLE run_break_records ON COMMIT DROP AS
        SELECT r.*, coalesce(p.card_id, l.card_id) AS card_id
        FROM (
          SELECT DISTINCT ON (side, item_kind, item_ref) substr(md5(break_key), 1, 16) AS break_id,
            side, item_kind AS record_kind, item_ref AS record_ref, item_amount AS amount,
            item_currency AS currency
          FROM run_break_items WHERE side IS NOT NULL
          -- One row per record: an item_ref can stand for two items (a fee type charged in two
          -- currencies), and the pick must not follow row order.
          ORDER BY side, item_kind, item_ref, main_item DESC, break_key, item_currency, item_amount) r
        LEFT JOIN provider_leftovers p ON r.side = 'provider' AND r.record_kind = 'card_transaction'
          AND p.kind = 'card_transaction' AND p.item_ref = r.record_ref COLLATE "default"
        LEFT JOIN ledger_leftovers l ON r.side = 'ledger' AND l.entry_id = r.record_ref COLLATE "C"`,
    },
    {
      name: "drop old break records",
      text: `DELETE FROM break_records o WHERE NOT EXISTS (SELECT 1 FROM run_break_records n
        WHERE n.side = o.side AND n.record_kind = o.record_kind AND n.record_ref = o.record_ref
          AND n.break_id = o.break_id AND n.amount IS NOT DISTINCT FROM o.amount
          AND n.currency IS NOT DISTINCT FROM o.currency
          AND n.card_id IS NOT DISTINCT FROM o.card_id)${reach.breakRecords}`,
    },
    ...addMissing(
      "break records",
      "break_records",
      "break_id, side, record_kind, record_ref, amount, currency, card_id",
      "run_break_records",
      ["side", "record_kind", "record_ref"],
      reach,
    ),
  ];
}

/**
 * Statements that write the run's results over the stored ones (only the differences); an
 * incremental run (`scope`: the key ranges its lookups were bounded by) over the stored results
 * of its scope only.
 */
export function persistStatements(
  runId: string,
  o: ResolvedMatchOptions,
  opts: { fresh: boolean; scope: KeyBounds | undefined; exactPairs: number },
): Statement[] {
  const run = `'${runId}'::uuid`;
  const reach = opts.scope ? IN_SCOPE : ALL;
  const writes = [
    ...pairStatements(run, opts.fresh, reach),
    ...totalsStatements(opts),
    ...groupStatements(run, reach),
    // As for the pairs: a first run's groups analysed now, not when autovacuum comes by (the
    // write triggers and the finance views join them).
    ...(opts.fresh ? fullyAnalyzed("group statistics", "match_groups, match_group_members") : []),
    ...breakStatements(o, run, reach),
  ];
  return opts.scope ? scopeDaysLogged(writes) : writes;
}

/**
 * An incremental run's writes name records of its scope only, all in its copies: the days the
 * console's kept figures must compute again (report/figures-cache.ts) are logged once from the
 * copies, and the write triggers skip mapping each written pair, member and break to the same
 * days (migration 0034). The setting is on for these writes only.
 */
function scopeDaysLogged(writes: readonly Statement[]): Statement[] {
  return [
    { name: "finance days of the scope", text: "SELECT finance_log_scope_days()" },
    {
      name: "finance days logged",
      text: "SET LOCAL merchantkit.finance_days_logged = on",
    },
    ...writes,
    {
      name: "finance days logged (end)",
      text: "SET LOCAL merchantkit.finance_days_logged = off",
    },
  ];
}
