// The merchant's ledger as the CSV file a finance system exports (docs/ledger-format.md), the
// form the reconciler imports. Written here for the demo and the tests, independently of the
// reconciler's reader; the reconciler's tests pin these columns to the ones it reads.

/** The columns, in file order. */
export const LEDGER_COLUMNS = [
  "entry_id",
  "kind",
  "provider_ref",
  "amount",
  "currency",
  "booked_at",
  "fee_type",
  "card_id",
  "description",
] as const;

/** What an entry books: a card transaction, a card operation, a fee, or an account posting. */
export type LedgerKind = "card_transaction" | "card_operation" | "fee" | "account";

/** One ledger line: money as a decimal string, the time as ISO 8601 UTC. */
export interface LedgerEntry {
  entryId: string;
  kind: LedgerKind;
  providerRef: string;
  /** Signed decimal string ("-12.50"), never a JS number. */
  amount: string;
  currency: string;
  bookedAt: string;
  feeType?: string | undefined;
  cardId?: string | undefined;
  description?: string | undefined;
}

/** A field as CSV: quoted when it holds a comma, quote, or line break. */
export function csvField(value: string | undefined | null): string {
  if (value === undefined || value === null) return "";
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}
