// The merchant's ledger: the CSV format, its import, and the generator tests and the demo use.
export { CsvSyntaxError, csvField, readCsv } from "./csv";
export type { GroundTruth } from "./ground-truth";
export { importLedger, LedgerImportError, type LedgerImportResult } from "./import-ledger";
export {
  LEDGER_COLUMNS,
  LEDGER_KINDS,
  type LedgerEntry,
  type LedgerKind,
} from "./ledger-row";
export { type LedgerRowError, type ParsedLedger, parseLedger } from "./parse-ledger";
export {
  INJECTABLE_CLASSES,
  type InjectableClass,
  type InjectedDiscrepancy,
  type WriteLedgerOptions,
  type WrittenLedger,
  writeLedger,
} from "./write-ledger";
