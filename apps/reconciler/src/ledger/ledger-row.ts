// One ledger CSV row checked against docs/ledger-format.md: a typed entry, or why not.
import { c } from "@merchantkit/contract";
import type { ReconcilerConfig } from "../config/reconciler-config";
import { errorText } from "../store/error-text";
import { maskCardData } from "../store/mask-card-data";

/** What an entry books: a card transaction, a card operation, a fee, or an account posting. */
type LedgerKind = "card_transaction" | "card_operation" | "fee" | "account";

const LEDGER_KINDS: readonly LedgerKind[] = [
  "card_transaction",
  "card_operation",
  "fee",
  "account",
];

/** A checked entry: money as a decimal string, the time as ISO 8601 UTC. */
export interface LedgerEntry {
  entryId: string;
  kind: LedgerKind;
  providerRef: string;
  /** Signed decimal string ("-12.50"), never a JS number. */
  amount: string;
  currency: string;
  /** ISO 8601 UTC with milliseconds. */
  bookedAt: string;
  feeType?: string | undefined;
  cardId?: string | undefined;
  description?: string | undefined;
  /** The sub-merchant (its merchantNo) the entry is of; undefined: the merchant itself. */
  entity?: string | undefined;
}

/**
 * The entities a ledger row may name (RECONCILER_ENTITIES): the merchant itself (MERCHANT_NO,
 * or an empty cell) and its sub-merchants.
 */
export interface LedgerEntities {
  merchantNo?: string | undefined;
  subMerchants: readonly string[];
}

const MERCHANT_ALONE: LedgerEntities = { subMerchants: [] };

/** The entities the configuration names: MERCHANT_NO and RECONCILER_ENTITIES. */
export function ledgerEntitiesOf(
  config: Pick<ReconcilerConfig, "merchantNo" | "entities">,
): LedgerEntities {
  return { merchantNo: config.merchantNo, subMerchants: config.entities };
}

export const REQUIRED_COLUMNS = [
  "entry_id",
  "kind",
  "provider_ref",
  "amount",
  "currency",
  "booked_at",
] as const;
const OPTIONAL_COLUMNS = ["fee_type", "card_id", "description", "entity"] as const;
export const LEDGER_COLUMNS = [...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS] as const;
export type LedgerColumn = (typeof LEDGER_COLUMNS)[number];

const AMOUNT = /^[+-]?\d{1,24}(\.\d{1,12})?$/;
const CURRENCY = /^[A-Z]{3}$/;
const FEE_TYPE = /^[A-Z][A-Z0-9_]{0,39}$/;
const DIGITS = /^\d{1,40}$/;
// A date, or a date-time with optional seconds and fraction; zone Z, ±hh, ±hhmm or ±hh:mm
// (none = UTC).
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it rejects
export const CONTROL = /[\u0000-\u001f\u007f]/;
// Free text may hold tabs and line breaks (a quoted cell), but no other control character:
// Postgres cannot store U+0000 in text at all, and the rest are never meant in a description.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it rejects
const TEXT_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

// The provider's keys (docs/ledger-format.md): a serviceId is a 64-bit id in canonical form by
// the same rule the SDK sends ids with (the account API is queried by it, and one malformed id
// would fail its whole batch); txnOrderNo, clientRequestId and operateRecordId are at most 64
// characters.
const MAX_KEY_LENGTH = 64;

/** Why provider_ref cannot be the key an entry of this kind names, or undefined. */
function providerRefProblem(kind: LedgerKind, ref: string): string | undefined {
  if (kind === "account") {
    if (!c.isId64(ref))
      // The limit is written as a power: its 19 digits pass for a card number, which the
      // masking of every refusal reason would hide. The ref is masked before it is cut, so no
      // card number is left half shown.
      return `provider_ref "${errorText(ref).slice(0, 40)}" is not a serviceId (a 64-bit integer, at most 2^63 - 1, without leading zeros), which an account entry must name`;
    return undefined;
  }
  if (ref.length > MAX_KEY_LENGTH)
    return `provider_ref is ${ref.length} characters; a txnOrderNo, clientRequestId or operateRecordId has at most ${MAX_KEY_LENGTH}`;
  if (/\s/.test(ref)) return "provider_ref holds white space, which no provider key does";
  return undefined;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** booked_at as ISO 8601 UTC with milliseconds, or undefined when it is not a real time. */
export function normalizeTime(text: string): string | undefined {
  const m = ISO.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h = "00", mi = "00", s = "00", frac = "", zone = "Z"] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  // ±hh (as Postgres writes whole-hour offsets), ±hhmm or ±hh:mm.
  const offset =
    zone === "Z" ? "Z" : zone.length === 3 ? `${zone}:00` : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  const ms = `${frac}000`.slice(0, 3);
  const at = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}${offset}`);
  if (Number.isNaN(at)) return undefined;
  // Years 0001-9999 only, checked after the offset is applied: Postgres has no year 0000, and
  // JS writes year 10000 as "+010000-…", which Postgres refuses; either would fail the whole
  // import in the database instead of being named here as a bad row.
  const utc = new Date(at);
  const utcYear = utc.getUTCFullYear();
  return utcYear < 1 || utcYear > 9999 ? undefined : utc.toISOString();
}

/** "+12.50" → "12.50", "-0" → "0": the text Postgres would store, digits kept. */
function normalizeAmount(text: string): string {
  const unsigned = text.replace(/^[+-]/, "");
  const [whole = "0", frac] = unsigned.split(".");
  const digits = whole.replace(/^0+(?=\d)/, "");
  const body = frac === undefined ? digits : `${digits}.${frac}`;
  const zero = /^[0.]+$/.test(body);
  return text.startsWith("-") && !zero ? `-${body}` : body;
}

/**
 * Checks one row (values by column name) and answers the entry, or the first reason it is not
 * one, worded for the person who has to fix the file.
 */
export function checkLedgerRow(
  values: Partial<Record<LedgerColumn, string>>,
  entities: LedgerEntities = MERCHANT_ALONE,
): { entry: LedgerEntry } | { reason: string } {
  for (const column of REQUIRED_COLUMNS)
    if (!values[column]?.trim()) return { reason: `${column} is empty` };
  for (const column of LEDGER_COLUMNS) {
    const value = values[column];
    const control = value?.match(column === "description" ? TEXT_CONTROL : CONTROL)?.[0];
    if (control !== undefined)
      return {
        reason: `${column} holds the control character U+${control.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}, which no ledger column may hold`,
      };
    if (value !== undefined && value.length > (column === "description" ? 2000 : 200))
      return {
        reason: `${column} is longer than ${column === "description" ? 2000 : 200} characters`,
      };
  }
  const v = values as Record<LedgerColumn, string | undefined>;
  const entryId = (v.entry_id as string).trim();
  const kind = (v.kind as string).trim();
  if (!LEDGER_KINDS.includes(kind as LedgerKind))
    return { reason: `kind "${kind}" is not one of ${LEDGER_KINDS.join(", ")}` };
  const providerRef = (v.provider_ref as string).trim();
  const refProblem = providerRefProblem(kind as LedgerKind, providerRef);
  if (refProblem) return { reason: refProblem };
  const amount = (v.amount as string).trim();
  if (!AMOUNT.test(amount))
    return {
      reason: `amount "${amount}" is not a signed decimal such as -12.50 (a dot, no thousands separator)`,
    };
  const currency = (v.currency as string).trim();
  if (!CURRENCY.test(currency))
    return { reason: `currency "${currency}" is not a three-letter upper-case ISO 4217 code` };
  const bookedText = (v.booked_at as string).trim();
  const bookedAt = normalizeTime(bookedText);
  if (!bookedAt)
    return {
      reason: `booked_at "${bookedText}" is not an ISO 8601 date or date-time in the years 0001-9999 UTC (e.g. 2026-05-01T10:00:00Z)`,
    };
  const feeType = v.fee_type?.trim() || undefined;
  if (kind === "fee" && !feeType) return { reason: "fee_type is required when kind is fee" };
  if (kind !== "fee" && feeType)
    return { reason: `fee_type is only allowed when kind is fee (kind is ${kind})` };
  if (feeType && !FEE_TYPE.test(feeType))
    return {
      reason: `fee_type "${feeType}" must be upper-case letters, digits and _ (e.g. EXCHANGE)`,
    };
  const cardId = v.card_id?.trim() || undefined;
  if (cardId && !DIGITS.test(cardId))
    return { reason: `card_id "${cardId}" is not a card id (digits)` };
  const entity = entityOf(v.entity?.trim() ?? "", kind as LedgerKind, entities);
  if (typeof entity === "object") return entity;
  // Free text may quote a card number ("paid with 4111…"): masked as a push's free text is
  // (13–19 digits passing the Luhn check keep their first 6 and last 4), the same text always
  // the same way, so a repeated import still finds the entry unchanged.
  const description = v.description
    ? maskCardData({ description: v.description }, false).description
    : undefined;
  return {
    entry: {
      entryId,
      kind: kind as LedgerKind,
      providerRef,
      amount: normalizeAmount(amount),
      currency,
      bookedAt,
      feeType,
      cardId,
      description,
      entity,
    },
  };
}

/**
 * The entity a row names: undefined for the merchant itself (an empty cell or MERCHANT_NO), a
 * sub-merchant of RECONCILER_ENTITIES, or why not. A sub-merchant's entries are account postings:
 * the service reads card records, operations and their fees for the merchant alone, so a card
 * entry of a sub-merchant could only ever be unmatched.
 */
function entityOf(
  entity: string,
  kind: LedgerKind,
  entities: LedgerEntities,
): string | undefined | { reason: string } {
  if (entity === "" || entity === entities.merchantNo) return undefined;
  if (!entities.subMerchants.includes(entity))
    return {
      reason: `entity "${entity}" is neither the merchant (MERCHANT_NO${entities.merchantNo ? ` ${entities.merchantNo}` : ""}) nor a sub-merchant of RECONCILER_ENTITIES (${entities.subMerchants.length > 0 ? entities.subMerchants.join(", ") : "none set"})`,
    };
  if (kind !== "account")
    return {
      reason: `entity "${entity}" is a sub-merchant, whose entries are account postings only (kind is ${kind})`,
    };
  return entity;
}
