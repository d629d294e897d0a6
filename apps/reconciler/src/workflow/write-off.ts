// Writing a break off: finance resolves a difference by adjustment. In one transaction, under the
// locks every action on the break takes (break-actions.ts lockBreak), it books one journal entry
// per currency the break touches (journal_entries: provider − ledger in that currency, from the
// break's records), makes the break accepted with the write-off's reason (it leaves the open
// queue; the statement counts it as accepted), and appends one audit row (action write_off).
// A run that changes the break's figures later lapses it like any acceptance; the booked entries
// stay (the journal is append-only): finance books the correction (docs/assumptions.md).
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { queryRows } from "../db/query-rows";
import { utcText } from "../db/utc-text";
import { acceptance, appendAudit, lockBreak, refuseByState } from "./break-actions";
import { freeText, personName, requiredBreakId } from "./typed-text";
import { WorkflowError } from "./workflow-error";

interface WriteOffInput {
  breakId: string;
  /** Who writes it off (a person's name: typed-text.ts personName). */
  actor: string;
  /** The account the difference is booked to: letters, digits, space and . _ : / - (1–64). */
  account: string;
  /** Why (1–2,000 characters, card numbers masked). */
  reason: string;
  /** The entries' accounting date, YYYY-MM-DD; the write-off's UTC day when absent. */
  date?: string | undefined;
}

/** A journal entry as stored (amounts and ids as decimal text). */
export interface JournalEntry {
  id: string;
  entryDate: string;
  account: string;
  /** Signed: provider − ledger in `currency`. */
  amount: string;
  currency: string;
  breakId: string;
  /** The break's records in this currency, "side:kind:ref" joined by ", ". */
  reference: string;
  actor: string;
  reason: string;
  actionId: string;
  createdAt: string;
}

interface WriteOffResult {
  /** The audit row's id. */
  actionId: string;
  breakId: string;
  /** accepted: the break leaves the open queue. */
  status: "accepted";
  /** One per currency whose difference is not zero, by currency. */
  entries: JournalEntry[];
}

const ACCOUNT = /^[\p{L}\p{N}][\p{L}\p{N} ._:/-]{0,63}$/u;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The account as stored, or a WorkflowError naming the rule. */
function accountCode(value: string | undefined): string {
  const account = (value ?? "").normalize("NFKC").trim();
  if (account === "")
    throw new WorkflowError(
      "invalid",
      "account is required: the account the difference is booked to",
      "account",
    );
  if (!ACCOUNT.test(account))
    throw new WorkflowError(
      "invalid",
      "account must be 1–64 letters, digits, spaces or . _ : / - starting with a letter or digit",
      "account",
    );
  return account;
}

/** A calendar day YYYY-MM-DD (2026-02-30 refused), or a WorkflowError naming `date`. */
function calendarDay(value: string): string {
  const found = DAY.exec(value.trim());
  const day = found ? new Date(`${found[0]}T00:00:00Z`) : undefined;
  if (!found || !day || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== found[0])
    throw new WorkflowError(
      "invalid",
      `date must be a calendar day YYYY-MM-DD, not ${value}`,
      "date",
    );
  return found[0];
}

/** Checks a write-off before any database work; answers it as it is stored. */
export function checkWriteOffInput(input: WriteOffInput): WriteOffInput {
  const breakId = requiredBreakId(input.breakId);
  return {
    breakId,
    actor: personName(input.actor, "actor", "who writes it off (--as NAME or RECONCILER_ACTOR)"),
    account: accountCode(input.account),
    reason: freeText(input.reason, "reason", "why the difference is written off"),
    date: input.date === undefined ? undefined : calendarDay(input.date),
  };
}

interface Difference extends Record<string, unknown> {
  currency: string;
  amount: string;
  reference: string;
}

/**
 * A break's money in one currency, over its break_records grouped by currency: provider −
 * ledger (the records hold the signed amounts of both sides in one sign convention, a key's
 * provider and ledger amounts compared as pa − la, so the sum is the ledger's shortfall).
 */
export const RECORDS_EFFECT = sql.raw(
  "sum(CASE side WHEN 'provider' THEN amount ELSE -amount END)",
);

/** The rule a write-off of a break with nothing to adjust breaks (WorkflowError.rule). */
export const NOTHING_TO_WRITE_OFF = "nothing_to_write_off";

/**
 * What writing break `breakId` off books: per currency its records touch, provider − ledger,
 * the currencies where it is not zero. None: refused (a WorkflowError naming the rule), so a
 * write-off, or its request for a second approval, is refused when it is asked for.
 */
export async function writeOffDifferences(tx: Db, breakId: string): Promise<Difference[]> {
  const differences = await queryRows<Difference>(
    tx,
    sql`SELECT currency, ${RECORDS_EFFECT}::text AS amount,
        string_agg(side || ':' || record_kind || ':' || record_ref, ', '
          ORDER BY side DESC, record_kind, record_ref) AS reference
      FROM break_records WHERE break_id = ${breakId} AND amount IS NOT NULL
      GROUP BY currency
      HAVING ${RECORDS_EFFECT} <> 0
      ORDER BY currency`,
  );
  if (differences.length === 0)
    throw new WorkflowError(
      "conflict",
      `break ${breakId} has no difference to write off (its provider and ledger records agree in every currency: its signed effect is zero): accept it instead`,
      "breakId",
      NOTHING_TO_WRITE_OFF,
    );
  return differences;
}

/** A write-off's audit text: its reason and its account. */
export const writeOffText = (reason: string, account: string) => `${reason} (account ${account})`;

/**
 * Writes break `breakId` off to `account`: refused (nothing written) for an unknown, resolved or
 * already accepted break, and for one whose records agree in every currency (no difference to
 * book: accept it instead).
 */
export async function writeOffBreak(db: Db, raw: WriteOffInput): Promise<WriteOffResult> {
  const input = checkWriteOffInput(raw);
  const { breakId, actor, account, reason } = input;
  return db.transaction(async (tx) => {
    const b = await lockBreak(tx, breakId, actor);
    refuseByState("write_off", b, breakId);
    const differences = await writeOffDifferences(tx, breakId);
    const last = sql`last_action = 'write_off', last_actor = ${actor}, last_action_at = now()`;
    await queryRows(tx, acceptance(breakId, b, actor, reason, last));
    const actionId = await appendAudit(
      tx,
      breakId,
      b,
      actor,
      "write_off",
      writeOffText(reason, account),
    );
    const day =
      input.date === undefined ? sql`(now() AT TIME ZONE 'UTC')::date` : sql`${input.date}::date`;
    const entries = await queryRows<JournalEntry & Record<string, unknown>>(
      tx,
      sql`INSERT INTO journal_entries
          (entry_date, account, amount, currency, break_id, reference, actor, reason, action_id)
        SELECT ${day}, ${account}, d.amount::numeric, d.currency, ${breakId}, d.reference,
          ${actor}, ${reason}, ${actionId}::bigint
        FROM jsonb_to_recordset(${JSON.stringify(differences)}::jsonb)
          AS d(currency text, amount text, reference text)
        ORDER BY d.currency
        RETURNING ${JOURNAL_COLUMNS}`,
    );
    return { actionId, breakId, status: "accepted", entries };
  });
}

/** journal_entries' columns as JournalEntry names and holds them (times ISO 8601 UTC). */
export const JOURNAL_COLUMNS = sql`id::text AS id, entry_date::text AS "entryDate", account,
  amount::text AS amount, currency, break_id AS "breakId", reference, actor, reason,
  action_id::text AS "actionId", ${utcText("created_at")} AS "createdAt"`;
