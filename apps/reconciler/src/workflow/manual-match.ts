// Manual matches: a person pairs ledger entries with provider records that no pass paired
// (several on either side), with a reason, and undoes such a pair. Like a decision on a
// proposal (decide-proposal.ts), it is stored on the records (manual_matches and their
// manual_match_records, with the amounts and currency matched on), both sides are marked changed
// (match_changes) so the next run, incremental or full, applies it (passes/manual-matches.ts),
// and every break a record was in gets an audit row (match, unmatch; lapse when a run finds a
// record changed). The rule: one currency, and the two sides' sums equal to the cent. A manual
// match never hides a difference, so every per-currency view still ties; a difference is
// accepted or written off on its break instead.
//
// Matching and unmatching take the matcher's lock (the one every match run holds for its whole
// transaction): a run sees a manual match with its changes, or neither, and never lapses one it
// could not see.
import { decimalEquals, subtractDecimal, sumDecimals } from "@merchantkit/core";
import { sql } from "drizzle-orm";
import { advisoryKey } from "../db/advisory-key";
import type { Db } from "../db/database";
import { queryRows } from "../db/query-rows";
import { utcText } from "../db/utc-text";
import { notProposed } from "../store/proposed-groups";
import { appendLastAction, lockBreak, RECONCILER_ACTOR } from "./break-actions";
import { freeText, personName } from "./typed-text";
import { WorkflowError } from "./workflow-error";

/** At most this many entries and as many records in one manual match. */
const MAX_MANUAL_SIDE = 100;

interface ManualMatchInput {
  /** Ledger entry ids (ledger_entries.entry_id). */
  entries: readonly string[];
  /** Provider record refs, as breaks show them (txnOrderNo, clientRequestId, <key>#<fee type>…). */
  records: readonly string[];
  actor: string;
  reason: string;
}

interface ManualMatchResult {
  /** manual_matches.id; the match group is `manual:<id>`. */
  matchId: string;
  currency: string;
  /** Each side's sum (equal). */
  amount: string;
  /** The breaks the records were in (each got an audit row), sorted. */
  breakIds: string[];
}

interface UnmatchInput {
  /** The manual match's id (7, or manual:7 as the match group names it). */
  matchId: string;
  actor: string;
  reason: string;
  /**
   * The break the person undoes it from (the console's break page): refused unless the match
   * holds one of that break's records. The CLI names the match alone.
   */
  breakId?: string | undefined;
}

interface UnmatchResult {
  matchId: string;
  breakIds: string[];
}

function idList(values: readonly string[] | undefined, field: string, what: string): string[] {
  const ids = (values ?? []).map((id) => id.trim()).filter((id) => id !== "");
  if (ids.length === 0) throw new WorkflowError("invalid", `${field} is required: ${what}`, field);
  if (ids.length > MAX_MANUAL_SIDE)
    throw new WorkflowError(
      "invalid",
      `${field} must name at most ${MAX_MANUAL_SIDE} ids (${ids.length} given)`,
      field,
    );
  for (const id of ids)
    if (id.length > 200 || /\p{Cc}/u.test(id))
      throw new WorkflowError(
        "invalid",
        `${field} "${id.slice(0, 40)}" is not an id: at most 200 characters, no control characters`,
        field,
      );
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice !== undefined)
    throw new WorkflowError("invalid", `${field} names ${twice} twice: name each once`, field);
  return ids;
}

/** Checks a manual match before any database work; answers it as it is stored. */
export function checkManualMatchInput(input: ManualMatchInput): ManualMatchInput {
  return {
    entries: idList(input.entries, "entries", "the ledger entry ids to match"),
    records: idList(input.records, "records", "the provider record ids to match"),
    actor: personName(input.actor, "actor", "who matches (--as NAME or RECONCILER_ACTOR)"),
    reason: freeText(input.reason, "reason", "why these records are one match"),
  };
}

/** Checks an unmatch before any database work; the id as digits. */
export function checkUnmatchInput(input: UnmatchInput): UnmatchInput {
  const id = (input.matchId ?? "").trim().replace(/^manual:/, "");
  if (!/^[1-9]\d{0,17}$/.test(id))
    throw new WorkflowError(
      "invalid",
      `matchId must be a manual match's id (digits, as breaks match printed it, or manual:ID); got "${(input.matchId ?? "").slice(0, 40)}"`,
      "matchId",
    );
  return {
    matchId: id,
    actor: personName(input.actor, "actor", "who unmatches (--as NAME or RECONCILER_ACTOR)"),
    reason: freeText(input.reason, "reason", "why the manual match is undone"),
    breakId: input.breakId,
  };
}

/** One record as found: its side, kind, ref, amount and currency now, and where it sits. */
interface Found extends Record<string, unknown> {
  side: "ledger" | "provider";
  record_kind: string;
  record_ref: string;
  amount: string;
  currency: string;
  /** The unresolved break holding it, if any. */
  break_id: string | null;
  /** A confirmed match holding it, if any. */
  match_id: string | null;
  /** An active manual match holding it, if any. */
  manual_id: string | null;
  /** The entity the record is of ('' the merchant itself). */
  entity: string;
}

/**
 * The entities whose records may be matched (a limited console account's); every entity when
 * absent. A record of another entity is answered as one that does not exist, so a limited
 * account learns nothing of the others' ids.
 */
type Entities = readonly string[] | undefined;

/** Where the record (`side`, SQL of its kind and ref) sits now: break_id, match_id, manual_id. */
const whereHeld = (side: "ledger" | "provider", kind: string, ref: string) =>
  sql.raw(`(SELECT br.break_id FROM break_records br JOIN breaks b ON b.break_id = br.break_id
      WHERE br.side = '${side}' AND br.record_kind = ${kind} AND br.record_ref = ${ref}
        AND b.status <> 'resolved' ORDER BY br.break_id LIMIT 1) AS break_id,
    (SELECT m.match_id FROM match_members m WHERE m.side = '${side}' AND m.record_kind = ${kind}
      AND m.record_ref = ${ref} AND ${notProposed("m")} LIMIT 1) AS match_id,
    (SELECT r.match_id::text FROM manual_match_records r JOIN manual_matches mm ON mm.id = r.match_id
      WHERE mm.status = 'active' AND r.side = '${side}' AND r.record_kind = ${kind}
        AND r.record_ref = ${ref} LIMIT 1) AS manual_id`);

async function findEntry(tx: Db, id: string, entities: Entities): Promise<Found> {
  const [row] = await queryRows<Found>(
    tx,
    sql`SELECT 'ledger' AS side, 'ledger_entry' AS record_kind, e.entry_id AS record_ref,
        e.amount::text AS amount, e.currency, e.entity,
        ${whereHeld("ledger", "'ledger_entry'", "e.entry_id")}
      FROM ledger_entries e WHERE e.entry_id = ${id}`,
  );
  if (!row || (entities !== undefined && !entities.includes(row.entity)))
    throw new WorkflowError("invalid", `entries: no ledger entry has the id ${id}`, "entries");
  return row;
}

async function findRecord(tx: Db, ref: string, entities: Entities): Promise<Found> {
  const all = await queryRows<Found>(
    tx,
    sql`SELECT 'provider' AS side, p.kind AS record_kind, p.item_ref AS record_ref,
        p.amount::text AS amount, p.currency, p.entity,
        ${whereHeld("provider", "p.kind", "p.item_ref")}
      FROM provider_items p WHERE p.item_ref = ${ref}`,
  );
  const rows = all.filter((r) => entities === undefined || entities.includes(r.entity));
  const [row, other] = rows;
  if (!row)
    throw new WorkflowError(
      "invalid",
      `records: no provider record has the id ${ref} (a settled card transaction's txnOrderNo, an operation's clientRequestId, <key>#<fee type>, <serviceId>:<currency>)`,
      "records",
    );
  if (other)
    throw new WorkflowError(
      "invalid",
      `records: ${ref} names ${rows.length} provider records (${rows.map((r) => r.record_kind).join(", ")}): it cannot be matched by id alone`,
      "records",
    );
  return row;
}

/** Refuses a record that is not free to match, naming its flag and why. */
function refuseTaken(r: Found): void {
  const field = r.side === "ledger" ? "entries" : "records";
  const what = r.side === "ledger" ? "entry" : "record";
  if (r.manual_id !== null)
    throw new WorkflowError(
      "conflict",
      `${field}: ${what} ${r.record_ref} is already in manual match ${r.manual_id}: unmatch it first`,
      field,
    );
  // A record in a rule's match is paired even where a break also holds it (a cash leg's).
  if (r.match_id !== null)
    throw new WorkflowError(
      "conflict",
      `${field}: ${what} ${r.record_ref} is already paired (${r.match_id}): only records no pass paired are matched by hand`,
      field,
    );
  if (r.break_id === null)
    throw new WorkflowError(
      "conflict",
      `${field}: ${what} ${r.record_ref} is in no open break: a match run has not seen it yet (run reconciler match first)`,
      field,
    );
}

/**
 * Refuses records of more than one entity: matching never pairs one entity's entry with
 * another's posting, so a manual match must not either, or each entity's bridge would carry
 * the other's money. The field is the side whose record parts from the first entry's entity.
 */
function refuseEntities(found: readonly Found[]): void {
  const byEntity = new Map<string, string[]>();
  for (const r of found) byEntity.set(r.entity, [...(byEntity.get(r.entity) ?? []), r.record_ref]);
  if (byEntity.size < 2) return;
  const first = found[0]?.entity;
  const entriesAgree = found.every((r) => r.side !== "ledger" || r.entity === first);
  const field = entriesAgree ? "records" : "entries";
  const named = [...byEntity]
    .map(
      ([entity, refs]) => `${entity === "" ? "the merchant itself" : entity} (${refs.join(", ")})`,
    )
    .join(", ");
  throw new WorkflowError(
    "invalid",
    `${field}: a manual match holds one entity's records (an entry of one entity never pairs with a posting of another); these are of ${named}`,
    field,
  );
}

/** The provider key a record sits under (match_changes kind 'key'): as incremental/open-breaks.ts keyOfRecord. */
const keyOf = (kind: string, ref: string) =>
  kind === "fee"
    ? ref.replace(/#[^#]*$/, "")
    : kind === "account" || kind === "cash_leg"
      ? ref.replace(/:[^:]*$/, "")
      : ref;

/** Marks the records changed, so the next run (incremental too) re-matches all of them. */
async function markChanged(
  tx: Db,
  records: readonly { side: string; record_kind: string; record_ref: string }[],
) {
  for (const r of records)
    await queryRows(
      tx,
      sql`INSERT INTO match_changes (kind, ref) VALUES (${r.side === "ledger" ? "entry" : "key"},
        ${r.side === "ledger" ? r.record_ref : keyOf(r.record_kind, r.record_ref)})`,
    );
}

/** One audit row per break, each break locked as every action on it is (break-actions.ts). */
async function audit(
  tx: Db,
  breakIds: readonly string[],
  actor: string,
  action: "match" | "unmatch",
  text: string,
) {
  for (const breakId of breakIds) {
    const b = await lockBreak(tx, breakId, actor);
    await appendLastAction(tx, breakId, b, actor, action, text);
  }
}

const matcherLock = (tx: Db) =>
  queryRows(tx, sql`SELECT pg_advisory_xact_lock(${advisoryKey("match")}::bigint)`);

/** Matches `entries` with `records` by hand; the next match run applies it. */
export async function matchManually(
  db: Db,
  raw: ManualMatchInput,
  entities?: readonly string[],
): Promise<ManualMatchResult> {
  const input = checkManualMatchInput(raw);
  return db.transaction(async (tx) => {
    await matcherLock(tx);
    const found: Found[] = [];
    for (const id of input.entries) found.push(await findEntry(tx, id, entities));
    for (const ref of input.records) found.push(await findRecord(tx, ref, entities));
    for (const r of found) refuseTaken(r);
    refuseEntities(found);
    const currencies = [...new Set(found.map((r) => r.currency))].sort();
    if (currencies.length > 1)
      throw new WorkflowError(
        "invalid",
        `records: a manual match holds one currency; these are in ${currencies.join(", ")} (${found.map((r) => `${r.record_ref} ${r.currency}`).join(", ")})`,
        "records",
      );
    const currency = currencies[0] as string;
    const side = (s: string) => sumDecimals(found.filter((r) => r.side === s).map((r) => r.amount));
    const [provider, ledger] = [side("provider"), side("ledger")];
    if (!decimalEquals(provider, ledger))
      throw new WorkflowError(
        "invalid",
        `records: the sides differ: provider records ${provider} ${currency}, ledger entries ${ledger} ${currency} (difference ${subtractDecimal(provider, ledger)} ${currency}); a manual match must leave no difference, so each currency still ties: accept or write off the difference on its break instead`,
        "records",
      );
    const [row] = await queryRows<{ id: string }>(
      tx,
      sql`INSERT INTO manual_matches (status, currency, amount, actor, reason)
        VALUES ('active', ${currency}, ${provider}::numeric, ${input.actor}, ${input.reason})
        RETURNING id::text AS id`,
    );
    const matchId = String(row?.id);
    for (const r of found)
      await queryRows(
        tx,
        sql`INSERT INTO manual_match_records (match_id, side, record_kind, record_ref, amount,
            currency, break_id)
          VALUES (${matchId}::bigint, ${r.side}, ${r.record_kind}, ${r.record_ref},
            ${r.amount}::numeric, ${r.currency}, ${r.break_id})`,
      );
    const breakIds = [...new Set(found.map((r) => r.break_id as string))].sort();
    await audit(
      tx,
      breakIds,
      input.actor,
      "match",
      `manual match ${matchId} (entries ${input.entries.join(", ")}; records ${input.records.join(", ")}): ${input.reason}`,
    );
    await markChanged(tx, found);
    return { matchId, currency, amount: provider, breakIds };
  });
}

interface Held extends Record<string, unknown> {
  side: string;
  record_kind: string;
  record_ref: string;
  break_id: string;
}

/**
 * Whether every record of manual match `matchId` is of `entities` (by the break it was in), so
 * a limited account never undoes another entity's match; every match when absent.
 */
async function heldWithin(tx: Db, matchId: string, entities: Entities): Promise<boolean> {
  if (entities === undefined) return true;
  const rows = await queryRows<{ entity: string }>(
    tx,
    sql`SELECT DISTINCT b.entity FROM manual_match_records r JOIN breaks b ON b.break_id = r.break_id
      WHERE r.match_id = ${matchId}::bigint`,
  );
  return rows.every((r) => entities.includes(r.entity));
}

/** Undoes the manual match `matchId`; the next match run gives its records back their breaks. */
export async function unmatchManually(
  db: Db,
  raw: UnmatchInput,
  entities?: readonly string[],
): Promise<UnmatchResult> {
  const input = checkUnmatchInput(raw);
  return db.transaction(async (tx) => {
    await matcherLock(tx);
    const [m] = await queryRows<{ status: string; ended_by: string | null; ended_at: string }>(
      tx,
      sql`SELECT status, ended_by, ${utcText("ended_at")} AS ended_at
        FROM manual_matches WHERE id = ${input.matchId}::bigint FOR UPDATE`,
    );
    if (!m || !(await heldWithin(tx, input.matchId, entities)))
      throw new WorkflowError(
        "invalid",
        `matchId: no manual match has the id ${input.matchId}`,
        "matchId",
      );
    if (input.breakId !== undefined) {
      const [held] = await queryRows(
        tx,
        sql`SELECT 1 FROM manual_match_records
          WHERE match_id = ${input.matchId}::bigint AND break_id = ${input.breakId}`,
      );
      if (!held)
        throw new WorkflowError(
          "invalid",
          `matchId: manual match ${input.matchId} holds no record of break ${input.breakId}`,
          "matchId",
        );
    }
    if (m.status !== "active")
      throw new WorkflowError(
        "conflict",
        `manual match ${input.matchId} is already ${m.status} (by ${m.ended_by} at ${m.ended_at}): nothing to unmatch`,
      );
    await queryRows(
      tx,
      sql`UPDATE manual_matches SET status = 'unmatched', ended_at = now(),
        ended_by = ${input.actor}, ended_reason = ${input.reason}
        WHERE id = ${input.matchId}::bigint`,
    );
    const records = await queryRows<Held>(
      tx,
      sql`SELECT side, record_kind, record_ref, break_id FROM manual_match_records
        WHERE match_id = ${input.matchId}::bigint ORDER BY side, record_ref`,
    );
    const breakIds = [...new Set(records.map((r) => r.break_id))].sort();
    await audit(
      tx,
      breakIds,
      input.actor,
      "unmatch",
      `manual match ${input.matchId} undone: ${input.reason}`,
    );
    await markChanged(tx, records);
    return { matchId: input.matchId, breakIds };
  });
}

/** An active manual match as a break's page shows it. */
export interface ActiveManualMatch {
  /** manual_matches.id; the match group is `manual:<id>`. */
  matchId: string;
  currency: string;
  amount: string;
  actor: string;
  reason: string;
  createdAt: string;
}

/**
 * The active manual matches holding a record of break `breakId` (the break it was in when
 * matched: before the next run it is still open, after it resolved by the group manual:<id>).
 */
export async function activeManualMatches(db: Db, breakId: string): Promise<ActiveManualMatch[]> {
  return queryRows<ActiveManualMatch & Record<string, unknown>>(
    db,
    sql`SELECT m.id::text AS "matchId", m.currency, m.amount::text AS amount, m.actor, m.reason,
        ${utcText("m.created_at")} AS "createdAt"
      FROM manual_matches m
      WHERE m.status = 'active' AND EXISTS (SELECT 1 FROM manual_match_records r
        WHERE r.match_id = m.id AND r.break_id = ${breakId})
      ORDER BY m.id`,
  );
}

/**
 * Lapses every active manual match the run did not apply (no stored group manual:<id> once the
 * run wrote its results): one of its records changed its amount or currency, went away, or a
 * rule now pairs it. Each break its records were in gets a `lapse` audit row (actor
 * "reconciler") saying what changed; the run already gave the records back their breaks.
 * Runs inside the match run's transaction, after its writes (run-match.ts), under its lock.
 */
export async function lapseManualMatches(db: Db, runId: string): Promise<number> {
  const lapsed = await queryRows<{ id: string }>(
    db,
    sql`WITH gone AS (
        SELECT m.id FROM manual_matches m
        WHERE m.status = 'active' AND NOT EXISTS (SELECT 1 FROM match_groups g
          WHERE g.match_id = 'manual:' || m.id::text)
      ), why AS (
        SELECT r.match_id, string_agg(
          CASE WHEN now_.amount IS NULL THEN r.side || ' ' || r.record_ref || ' is gone'
            WHEN now_.amount <> r.amount OR now_.currency <> r.currency THEN
              r.side || ' ' || r.record_ref || ' changed from ' || r.amount::text || ' '
              || r.currency || ' to ' || now_.amount::text || ' ' || now_.currency
            ELSE r.side || ' ' || r.record_ref || ' is paired by a rule now' END,
          '; ' ORDER BY r.side, r.record_ref) FILTER (WHERE now_.amount IS NULL
            OR now_.amount <> r.amount OR now_.currency <> r.currency
            OR paired.matched) AS what
        FROM manual_match_records r JOIN gone g ON g.id = r.match_id
        LEFT JOIN LATERAL (
          SELECT e.amount, e.currency FROM ledger_entries e
            WHERE r.side = 'ledger' AND e.entry_id = r.record_ref
          UNION ALL
          SELECT p.amount, p.currency FROM provider_items p
            WHERE r.side = 'provider' AND p.kind = r.record_kind AND p.item_ref = r.record_ref
          LIMIT 1
        ) now_ ON true
        CROSS JOIN LATERAL (SELECT EXISTS (SELECT 1 FROM match_members mm
          WHERE mm.side = r.side AND mm.record_kind = r.record_kind
            AND mm.record_ref = r.record_ref) AS matched) paired
        GROUP BY r.match_id
      ), ended AS (
        UPDATE manual_matches m SET status = 'lapsed', ended_at = clock_timestamp(),
          ended_by = ${RECONCILER_ACTOR},
          ended_reason = 'a record changed: ' || coalesce(w.what, 'its records are paired otherwise')
            || ' (match run ' || ${runId} || ')'
        FROM gone g LEFT JOIN why w ON w.match_id = g.id
        WHERE m.id = g.id
        RETURNING m.id, m.ended_reason
      ), audit AS (
        INSERT INTO break_actions (break_id, actor, at, action, text, class, amount, currency)
        SELECT DISTINCT ON (r.break_id) r.break_id, ${RECONCILER_ACTOR}, clock_timestamp(), 'lapse',
          'manual match ' || e.id::text || ' lapsed: ' || e.ended_reason,
          coalesce(b.class, 'manual'), coalesce(b.amount, 0), b.currency
        FROM ended e JOIN manual_match_records r ON r.match_id = e.id
        LEFT JOIN breaks b ON b.break_id = r.break_id
        ORDER BY r.break_id, e.id
        RETURNING break_id
      ), touched AS (
        UPDATE break_workflow w SET last_action = 'lapse', last_actor = ${RECONCILER_ACTOR},
          last_action_at = clock_timestamp()
        WHERE w.break_id IN (SELECT break_id FROM audit)
      )
      SELECT id::text AS id FROM ended`,
  );
  return lapsed.length;
}
