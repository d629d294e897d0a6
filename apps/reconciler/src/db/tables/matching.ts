// Matching results: one row per run, the live matches (exact pairs, and groups with their
// members), and breaks with the records each one covers.
import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  uuid,
} from "drizzle-orm/pg-core";
import { time } from "./column-types";

/** One row per match run: its as-of time, verdict, why, and its figures. */
export const matchRuns = pgTable(
  "match_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    startedAt: time("started_at").notNull().defaultNow(),
    finishedAt: time("finished_at"),
    /** The time ages and grace periods are measured from (the run's "now"). */
    asOf: time("as_of").notNull(),
    /** reconciled | reconciled_with_pending | breaks | incomplete; null while running. */
    verdict: text("verdict"),
    /** Why the run is incomplete (sync lag, failed windows...); empty otherwise. */
    reasons: jsonb("reasons").$type<string[]>().notNull().default([]),
    /** Tolerances and grace periods the run used. */
    params: jsonb("params").$type<Record<string, string | number>>().notNull().default({}),
    /** Counts: provider items, ledger entries, matches by pass, breaks by class... */
    stats: jsonb("stats").$type<Record<string, number>>().notNull().default({}),
    durationMs: integer("duration_ms"),
    /**
     * "change-log" on complete runs whose results were written: later runs may reuse or build on
     * them, reading what changed since from match_changes (unchanged-run.ts BUILDABLE).
     */
    fingerprint: text("fingerprint"),
    /** When time alone changes the results (a grace period ends, an authorization goes stale). */
    validUntil: time("valid_until"),
    /** A run that found nothing changed reuses this run's matches and breaks. */
    reusedRunId: uuid("reused_run_id"),
  },
  (t) => [
    check(
      "match_runs_verdict_check",
      sql`${t.verdict} in ('reconciled', 'reconciled_with_pending', 'breaks', 'incomplete')`,
    ),
    index("match_runs_started_idx").on(t.startedAt),
  ],
);

/**
 * A live exact match: one provider record and the one ledger entry that books it with the same
 * key, amount and currency — nearly every match. One narrow row per pair (not a match row and two
 * member rows) keeps writing a million of them cheap; the views `matches` and `match_members`
 * show each pair as the match `exact:<kind>:<ref>` with its two members.
 */
export const matchPairs = pgTable(
  "match_pairs",
  {
    /** The provider record: card_transaction | card_operation | fee | account. */
    recordKind: text("record_kind").notNull(),
    /** txnOrderNo, clientRequestId, <parent>#<feeType>, <serviceId>:<currency>. */
    recordRef: text("record_ref").notNull(),
    /** The ledger entry that books it. */
    entryId: text("entry_id").notNull(),
    /** The amount and currency both sides agree on. */
    amount: numeric("amount").notNull(),
    currency: text("currency").notNull(),
    firstRunId: uuid("first_run_id").notNull(),
    createdAt: time("created_at").notNull().defaultNow(),
  },
  // The key makes a provider record sit in at most one live pair; a ledger entry is in at most
  // one by construction (each entry is one row of the exact pass).
  (t) => [primaryKey({ columns: [t.recordKind, t.recordRef] })],
);

/**
 * The records of the stored results that no exact pair holds: each provider item the exact pass
 * left alone (by its key) and each ledger entry it left alone. With the pairs they are every
 * record of the last run, so an incremental run counts the totals from them and the pairs'
 * count (match_totals) instead of counting a million provider items and entries.
 */
export const matchLeftovers = pgTable(
  "match_leftovers",
  {
    /** provider | ledger. */
    side: text("side").notNull(),
    /** The provider item's key (txnOrderNo, clientRequestId, serviceId), or the entry_id. */
    ref: text("ref").notNull(),
  },
  (t) => [index("match_leftovers_ref_idx").on(t.side, t.ref)],
);

/**
 * One row: how many exact pairs match_pairs holds and how many provider items and entries
 * match_leftovers holds, kept by every run that writes them.
 */
export const matchTotals = pgTable("match_totals", {
  exactPairs: bigint("exact_pairs", { mode: "number" }).notNull(),
  providerLeftovers: bigint("provider_leftovers", { mode: "number" }).notNull(),
  ledgerLeftovers: bigint("ledger_leftovers", { mode: "number" }).notNull(),
});

/**
 * How many match groups of each pass the stored results hold, and under `cash_leg` how many
 * account postings sit in them as cash legs: kept as the groups are written, so an incremental
 * run reports them without counting every stored group.
 */
export const matchPassTotals = pgTable("match_pass_totals", {
  pass: text("pass").primaryKey(),
  groups: bigint("groups", { mode: "number" }).notNull(),
});

/**
 * A live match of several records: a chain, an operation booked gross of its fees, or a
 * tolerant proposal (exact pairs are in match_pairs).
 */
export const matchGroups = pgTable(
  "match_groups",
  {
    /** Deterministic: the pass's key (chain:<auth>, net:<clearing>, gross:<op>, proposed:<entry>). */
    matchId: text("match_id").primaryKey(),
    /** chain | operation_gross | tolerant. */
    pass: text("pass").notNull(),
    /** confirmed (exact rules) | proposed (the tolerant fallback: needs a person). */
    status: text("status").notNull(),
    currency: text("currency").notNull(),
    providerAmount: numeric("provider_amount").notNull(),
    ledgerAmount: numeric("ledger_amount").notNull(),
    firstRunId: uuid("first_run_id").notNull(),
    createdAt: time("created_at").notNull().defaultNow(),
  },
  (t) => [check("match_groups_status_check", sql`${t.status} in ('confirmed', 'proposed')`)],
);

/**
 * The records of each match group, and the cash legs (account transactions) of matched card
 * operations, whether the operation's match is a group or a pair (match_id exact:card_operation:…);
 * the key makes a record sit in at most one group.
 */
export const matchGroupMembers = pgTable(
  "match_group_members",
  {
    matchId: text("match_id").notNull(),
    /** provider | ledger | cash (an account transaction behind a card operation). */
    side: text("side").notNull(),
    /** card_transaction | card_operation | fee | account | ledger_entry | account_transaction. */
    recordKind: text("record_kind").notNull(),
    /** txnOrderNo, clientRequestId, <parent>#<feeType>, <serviceId>:<currency>, entry_id, acntTxnId. */
    recordRef: text("record_ref").notNull(),
    amount: numeric("amount").notNull(),
    currency: text("currency").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.side, t.recordKind, t.recordRef] }),
    index("match_group_members_match_idx").on(t.matchId),
  ],
);

/** A break: something finance must look at, with a stable id across runs. */
export const breaks = pgTable(
  "breaks",
  {
    /** md5 of break_key (first 16 hex digits): the same break keeps its id run after run. */
    breakId: text("break_id").primaryKey(),
    /** What the break is about (a provider record, a ledger entry, a chain), class excluded. */
    breakKey: text("break_key").notNull(),
    class: text("class").notNull(),
    /** The class before the latest change of class, if it changed. */
    previousClass: text("previous_class"),
    /** 1 (money booked without money behind it) … 4 (stock to watch). */
    priority: smallint("priority").notNull(),
    /** pending (inside its grace period) | open | resolved. */
    status: text("status").notNull(),
    recordKind: text("record_kind"),
    providerRef: text("provider_ref"),
    entryId: text("entry_id"),
    currency: text("currency"),
    /** Money at stake, positive. */
    amount: numeric("amount").notNull(),
    /** Signed amounts of each side, when there is one. */
    providerAmount: numeric("provider_amount"),
    ledgerAmount: numeric("ledger_amount"),
    detail: text("detail").notNull(),
    /** Business time of the record (transaction, operation or booking time): its age. */
    occurredAt: time("occurred_at"),
    firstSeenAt: time("first_seen_at").notNull(),
    /** When it became open (after its grace period). */
    openedAt: time("opened_at"),
    lastSeenAt: time("last_seen_at").notNull(),
    firstRunId: uuid("first_run_id").notNull(),
    lastRunId: uuid("last_run_id").notNull(),
    resolvedAt: time("resolved_at"),
    resolvedRunId: uuid("resolved_run_id"),
    /** The entity its records belong to: a sub-merchant's merchantNo, '' for the merchant itself. */
    entity: text("entity").notNull().default(""),
  },
  (t) => [
    check("breaks_status_check", sql`${t.status} in ('pending', 'open', 'resolved')`),
    index("breaks_queue_idx").on(t.status, t.priority),
    // An incremental match run finds the stored breaks of the records it re-matches by these.
    index("breaks_provider_ref_idx").on(t.providerRef),
    index("breaks_entry_idx").on(t.entryId),
    index("breaks_entity_idx").on(t.entity, t.status),
  ],
);

/** The records a pending or open break covers (none once it is resolved). */
export const breakRecords = pgTable(
  "break_records",
  {
    breakId: text("break_id").notNull(),
    side: text("side").notNull(),
    recordKind: text("record_kind").notNull(),
    recordRef: text("record_ref").notNull(),
    amount: numeric("amount"),
    currency: text("currency"),
    /**
     * The card of an unpaired card transaction or ledger entry as the run that wrote the row
     * saw it: an incremental run finds the breaks the tolerant pass could touch by it, before
     * and after a record changes (match/incremental/open-breaks.ts).
     */
    cardId: text("card_id"),
  },
  (t) => [
    primaryKey({ columns: [t.side, t.recordKind, t.recordRef] }),
    index("break_records_break_idx").on(t.breakId),
  ],
);

/**
 * What changed since the last match run wrote its results, written by triggers on the provider
 * tables and the ledger (migration 0010) in the writing statement's own transaction, so no
 * writer can forget it: `key` rows name a provider key (txnOrderNo, operateRecordId,
 * clientRequestId, serviceId; for the ledger the key an entry names, before and after a change),
 * `entry` rows a ledger entry, `all` a TRUNCATE (the next run matches everything). A match run
 * deletes the rows it read in the transaction that writes its results (match/incremental/).
 */
export const matchChanges = pgTable("match_changes", {
  id: bigint("id", { mode: "bigint" }).primaryKey().generatedAlwaysAsIdentity(),
  kind: text("kind").notNull(),
  ref: text("ref").notNull(),
});
