// Card data never reaches the tables: a full card number that arrives in a push, in any field,
// is stored masked (first 6 and last 4 digits), and 3DS verification values are not stored.
import { isJsonNumber } from "@merchantkit/core";
import { looksLikeCardNumber, replaceCardLikeRuns } from "@merchantkit/core/internal";
import { cardTransactionSpec } from "./card-transactions";
import { operateRecordSpec } from "./operate-records";
import { payoutSpec } from "./payouts";

/** Keys whose value is dropped wherever it appears: the 3DS value delivered to the cardholder. */
const NEVER_STORED = new Set(["card3dsvalues"]);

// Contract keys that hold the service's own identifiers: their digits are keys, never masked
// (a numeric txnOrderNo that happens to pass the Luhn check is still the record's key; an account
// transaction's acntTxnId is its row's key, serviceId an operateRecordId or payoutId,
// externalOrderId a card operation's clientRequestId; a payout's payoutId, the merchant's
// requestId, beneficiaryId and payerId). cardId is judged on its own by maskCardData.
const IDENTIFIERS = new Set([
  "cardId",
  "request_id",
  "operateRecordId",
  "txnOrderNo",
  "originTxnOrderNo",
  "originTxnOrderNoForRefund",
  "clientRequestId",
  "authorizationCode",
  "acntTxnId",
  "serviceId",
  "externalOrderId",
  "payoutId",
  "requestId",
  "beneficiaryId",
  "payerId",
]);

// Contract fields stored as numbers: times in epoch milliseconds and amounts (an operation's
// fees too, feeList's feeAmount). Never masked: a 13-digit time passes the Luhn check one time in
// ten, and masked it is no longer a number, so the push would be refused on every retry.
const NUMBERS = new Set([
  ...[...cardTransactionSpec.fields, ...operateRecordSpec.fields, ...payoutSpec.fields]
    .filter((f) => f.type === "numeric" || f.type === "epoch_ms")
    .map((f) => f.key),
  "feeAmount",
  "exchangeRate",
]);

// A key the contract does not name but that says "card number": every digit run in it is masked,
// Luhn-valid or not.
const CARD_NUMBER_KEY = /^(?:card_?(?:number|no|num)|pan|primary_?account_?number)$/i;

/** "4111111111111111" → "411111******1111". */
function maskCardNumber(digits: string): string {
  return `${digits.slice(0, 6)}${"*".repeat(digits.length - 10)}${digits.slice(-4)}`;
}

// How card numbers are printed in groups: 4-4-4-4, 4-4-4-4-3 (19 digits), 4-4-4-3 and 4-6-5
// (15, Amex), 4-6-4 (14, Diners).
const CARD_GROUPINGS = new Set(["4-4-4-4", "4-4-4-4-3", "4-4-4-3", "4-6-5", "4-6-4"]);

/**
 * Whether digit groups of these lengths are how a card number is written: one unbroken group of
 * 13–19 digits or a printed grouping (CARD_GROUPINGS). A stretch inside a longer number, or an
 * IBAN's or a phone number's groups, is not one.
 */
function cardGrouping(lengths: number[]): boolean {
  if (lengths.length === 1) return (lengths[0] as number) >= 13 && (lengths[0] as number) <= 19;
  return CARD_GROUPINGS.has(lengths.join("-"));
}

/**
 * The stretches [start, end) of the run's digits to mask: every sequence of whole digit groups
 * written as a card number is (cardGrouping) that passes the Luhn check, overlapping ones merged
 * (a merged stretch masked as one shows no more of any card number in it than its first 6 and
 * last 4 digits). Digits beside a card number in the run ("4111 1111 1111 1111 12/28") are kept.
 */
function cardStretches(run: string, digits: string): Array<[number, number]> {
  const groups: Array<[number, number]> = [];
  for (const group of run.matchAll(/\d+/g)) {
    const start = groups.at(-1)?.[1] ?? 0;
    groups.push([start, start + group[0].length]);
  }
  const stretches: Array<[number, number]> = [];
  for (let last = 0; last < groups.length; last++) {
    const end = (groups[last] as [number, number])[1];
    let start = end;
    for (
      let first = last;
      first >= 0 && end - (groups[first] as [number, number])[0] <= 19;
      first--
    ) {
      const from = (groups[first] as [number, number])[0];
      const lengths = groups.slice(first, last + 1).map(([s, e]) => e - s);
      if (cardGrouping(lengths) && looksLikeCardNumber(digits.slice(from, end))) start = from;
    }
    if (start === end) continue;
    // Found by end, so a new stretch overlaps only the last ones kept (it may reach further back).
    for (let kept = stretches.at(-1); kept && start < kept[1]; kept = stretches.at(-1)) {
      start = Math.min(start, kept[0]);
      stretches.pop();
    }
    stretches.push([start, end]);
  }
  return stretches;
}

/**
 * The run with its card numbers masked; separators outside them stay where they were. A run is
 * what core's replaceCardLikeRuns finds, the rule redaction masks by too: 12 digits or more,
 * apart by dashes, underscores or runs of spaces (no-break and thin ones too), or by '.' or '/'
 * in a card number's grouping ("4111.1111.1111.1111"); never a decimal amount's digits. A run
 * may hold a card number beside other digits ("pan 4111111111111111 123", "4111 1111 1111 1111
 * 12/28"), so its groups are searched for one (cardStretches); any other digits stay as typed.
 */
function maskRun(run: string, always: boolean): string {
  const digits = run.replace(/\D/g, "");
  if (always) return maskCardNumber(digits);
  const stretches = cardStretches(run, digits);
  if (stretches.length === 0) return run;
  // Where each digit sits in the run, to cut the run at digit positions.
  const at = [...run.matchAll(/\d/g)].map((m) => m.index);
  let out = "";
  let from = 0;
  for (const [start, end] of stretches) {
    out += run.slice(from, at[start]) + maskCardNumber(digits.slice(start, end));
    from = (at[end - 1] as number) + 1;
  }
  return out + run.slice(from);
}

function maskText(text: string, key: string): string {
  return replaceCardLikeRuns(text, (run) => maskRun(run, CARD_NUMBER_KEY.test(key)));
}

function maskValue(value: unknown, key: string): unknown {
  if (IDENTIFIERS.has(key) || NUMBERS.has(key)) return value;
  if (typeof value === "string") return maskText(value, key);
  if (isJsonNumber(value) || typeof value === "number" || typeof value === "bigint") {
    const text = isJsonNumber(value) ? value.text : String(value);
    const masked = maskText(text, key);
    return masked === text ? value : masked;
  }
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const masked = maskValue(value[i], key);
      if (masked === value[i]) continue;
      out ??= value.slice();
      out[i] = masked;
    }
    return out ?? value;
  }
  if (value !== null && typeof value === "object") return maskObject(value as object);
  return value;
}

const neverStored = (key: string) =>
  key.length === "card3dsValues".length && NEVER_STORED.has(key.toLowerCase());

// Copy on write: a value with nothing to mask is handed back as it is (the sync masks every
// record it stores, and almost none holds a card number: no copy, no allocation per field), a
// changed one is a new object and the input is never modified.
function maskObject(value: object): object {
  const record = value as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue;
    const item = record[key];
    const dropped = neverStored(key);
    const masked = dropped ? undefined : maskValue(item, key);
    if (out === undefined && (dropped || masked !== item)) {
      // The fields before this one, as they are.
      out = {};
      for (const before in record) {
        if (before === key) break;
        if (Object.hasOwn(record, before)) out[before] = record[before];
      }
    }
    if (out !== undefined && !dropped) out[key] = masked;
  }
  return out ?? value;
}

/**
 * The event with card data masked. `cardId` is the one judgement call: the contract lets a
 * push carry a card's 64-bit id or a masked card number there, and a 16-digit card number is
 * also a valid id. So a cardId that looks like a card number (cardIdToCheck) is masked unless
 * `knownCard` says the tables already hold a card with that id; a real id masked this way is
 * stored as a masked number, which the next sync replaces with the id (card-transactions
 * upsert), as when the service itself sends a masked number.
 */
export function maskCardData<T extends object>(event: T, knownCard: boolean): T {
  const masked = maskObject(event) as { data?: Record<string, unknown> };
  const cardId = masked.data?.cardId;
  if (masked.data && typeof cardId === "string" && looksLikeCardNumber(cardId) && !knownCard)
    return { ...masked, data: { ...masked.data, cardId: maskCardNumber(cardId) } } as T;
  return masked as T;
}

/** The cardId of an event's data worth asking the tables about (see maskCardData). */
export function cardIdToCheck(event: { data?: unknown }): string | undefined {
  const cardId = (event.data as { cardId?: unknown } | undefined)?.cardId;
  return typeof cardId === "string" && looksLikeCardNumber(cardId) ? cardId : undefined;
}
