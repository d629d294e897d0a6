// Test support: ledger CSV files dropped into a watched folder.
import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LEDGER_COLUMNS } from "../ledger/ledger-row";

/**
 * The CSV header line of every ledger column (docs/ledger-format.md) but entity: a file of the
 * merchant alone, as every file was before sub-merchants.
 */
export const LEDGER_HEADER = LEDGER_COLUMNS.filter((c) => c !== "entity").join(",");

/** One USD ledger line of a test: entry id, kind, provider ref, signed amount, fee type. */
export type LedgerLine = [id: string, kind: string, ref: string, amount: string, feeType?: string];

/** A ledger CSV of `lines` in USD, all booked at `bookedAt` on card `cardId`. */
export function ledgerCsv(lines: readonly LedgerLine[], bookedAt: string, cardId: string): string {
  return [
    LEDGER_HEADER,
    ...lines.map(
      ([id, kind, ref, amount, feeType]) =>
        `${id},${kind},${ref},${amount},USD,${bookedAt},${feeType ?? ""},${cardId},`,
    ),
  ].join("\n");
}

/** A minute ago: a file last changed then has settled (the folder takes it in). */
const PAST = new Date(Date.now() - 60_000);

/** Writes `text` as folder/name; settled (changed a minute ago) unless told otherwise. */
export function dropLedgerFile(folder: string, name: string, text: string, settled = true): void {
  const path = join(folder, name);
  writeFileSync(path, text);
  if (settled) utimesSync(path, PAST, PAST);
}
