// Card data never reaches the tables by the sync either: every record the sync writes
// (commitWindow) is masked by the webhook receiver's own maskCardData, with its rules (what is
// masked, what is dropped, which keys are left alone), before its raw text and raw_hash are
// computed. A webhook's record and the sync's copy of it so store the same masked form and the
// same hash: the sync finds the pushed row unchanged.
//
// maskCardData copies the whole record and runs its pattern over every text; almost no record
// holds a card number, so a walk first asks whether the record would be touched at all: a key
// maskCardData drops, or a value under a key it does not leave alone that holds enough digits
// and that maskCardData changes when asked about it alone. Only then is the record copied.
// What the masker leaves alone, drops, or touches is asked of maskCardData itself (probes below,
// once per key), not copied from it, so the two cannot drift apart.
import { isJsonNumber, type JsonNumber } from "@merchantkit/core";
import { maskCardData } from "../webhook-receiver/mask-card-data";

/** How maskCardData treats a key's value, wherever the key sits. */
type KeyRule = "keep" | "drop" | "check";

// A Luhn-valid 16-digit card number, as text and as a (safe) JSON number.
const PROBE_TEXT = "4111111111111111";
const PROBE_NUMBER = 4111111111111111;

const ABSENT = Symbol("absent");
const rules = new Map<string, KeyRule>();
// Keys come from the service's JSON: a bounded vocabulary, but bound the cache all the same.
const MAX_RULES = 10_000;

function probe(key: string, value: unknown): unknown {
  const out = maskCardData({ [key]: value }, true) as Record<string, unknown>;
  return Object.hasOwn(out, key) ? out[key] : ABSENT;
}

/** keep: left as it is (ids, times, amounts); drop: never stored; check: masked if need be. */
function ruleOf(key: string): KeyRule {
  let rule = rules.get(key);
  if (rule === undefined) {
    if (probe(key, "x") !== "x") rule = "drop";
    else if (probe(key, PROBE_TEXT) === PROBE_TEXT && probe(key, PROBE_NUMBER) === PROBE_NUMBER)
      rule = "keep";
    else rule = "check";
    if (rules.size < MAX_RULES) rules.set(key, rule);
  }
  return rule;
}

let fewest: number | undefined;

/**
 * The fewest digits a text needs for maskCardData to change it: under a key naming a card
 * number (`pan`) every long enough digit run is masked, Luhn or not, so that is the loosest
 * rule; a card number has 13 digits at least. Any separators may stand between the digits: only
 * the count matters.
 */
export function fewestDigitsMasked(): number {
  if (fewest === undefined) {
    fewest = 13;
    for (let n = 1; n < 13; n++) {
      const digits = "4".repeat(n);
      if ((maskCardData({ pan: digits }, true) as { pan?: unknown }).pan !== digits) {
        fewest = n;
        break;
      }
    }
  }
  return fewest;
}

function hasDigits(text: string, min: number): boolean {
  if (text.length < min) return false;
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57 && ++count >= min) return true;
  }
  return false;
}

/** Whether maskCardData changes this one value under this key (asked of it alone). */
function changes(key: string, value: unknown): boolean {
  return probe(key, value) !== value;
}

/**
 * True when maskCardData would change `value`, held under `key` (of rule "check"): a text (or
 * number) with too few digits is passed over; one with enough (a timestamp, a long reference)
 * is masked on its own to see, which costs far less than copying the whole record.
 */
function couldChange(key: string, value: unknown, min: number): boolean {
  switch (typeof value) {
    case "string":
      return hasDigits(value, min) && changes(key, value);
    case "number":
    case "bigint":
      return hasDigits(String(value), min) && changes(key, value);
    case "object":
      if (value === null) return false;
      if (isJsonNumber(value))
        return hasDigits((value as JsonNumber).text, min) && changes(key, value);
      // An array's items are masked by its key's rule, an object's fields by their own keys.
      if (Array.isArray(value)) return value.some((item) => couldChange(key, item, min));
      return objectCouldChange(value as Record<string, unknown>, min, undefined);
    default:
      return false;
  }
}

function objectCouldChange(
  record: Record<string, unknown>,
  min: number,
  keep: ReadonlySet<string> | undefined,
): boolean {
  for (const key in record) {
    if (!Object.hasOwn(record, key) || keep?.has(key)) continue;
    const rule = ruleOf(key);
    if (rule === "drop") return true;
    if (rule === "check" && couldChange(key, record[key], min)) return true;
  }
  return false;
}

const NONE: ReadonlySet<string> = new Set();

/**
 * The ids of an account transaction: keys of the service, never masked (acntTxnId is the row's
 * key, serviceId an operateRecordId or payoutId, externalOrderId a card operation's
 * clientRequestId, all of which maskCardData leaves alone in the records it knows).
 */
export const ACCOUNT_TRANSACTION_IDS: ReadonlySet<string> = new Set([
  "acntTxnId",
  "serviceId",
  "externalOrderId",
]);

/**
 * The record as the tables may hold it: maskCardData's result (card numbers masked, 3DS values
 * dropped; its identifiers, times and amounts as they are), or the record itself when nothing in
 * it could be touched. `cardId` is kept (a queried record's cardId is the card's id; a webhook
 * masked a doubtful one before it got here). `keep` names further top-level fields left as they
 * are: the ids of record types the receiver never sees (account transactions).
 */
export function maskRecordCardData<R extends object>(
  record: R,
  keep: ReadonlySet<string> = NONE,
): R {
  if (!objectCouldChange(record as Record<string, unknown>, fewestDigitsMasked(), keep))
    return record;
  const masked = maskCardData(record, true) as Record<string, unknown>;
  for (const key of keep)
    if (Object.hasOwn(record, key)) masked[key] = (record as Record<string, unknown>)[key];
  return masked as R;
}
