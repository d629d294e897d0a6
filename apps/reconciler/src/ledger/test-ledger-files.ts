// Test support: ledger CSV files dropped into a watched folder.
import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LEDGER_COLUMNS } from "./ledger-row";

/** The CSV header line of every ledger column (docs/ledger-format.md). */
export const LEDGER_HEADER = LEDGER_COLUMNS.join(",");

/** A minute ago: a file last changed then has settled (the folder takes it in). */
const PAST = new Date(Date.now() - 60_000);

/** Writes `text` as folder/name; settled (changed a minute ago) unless told otherwise. */
export function dropLedgerFile(folder: string, name: string, text: string, settled = true): void {
  const path = join(folder, name);
  writeFileSync(path, text);
  if (settled) utimesSync(path, PAST, PAST);
}
