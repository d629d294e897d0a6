// The merchant's ledger: the CSV format and its import (the ledger writer the demo and the tests
// use is the reconciler's test support, src/testing/).
export { CsvSyntaxError, csvField, readCsv } from "./csv";
export { importLedger, LedgerImportError, type LedgerImportResult } from "./import-ledger";
export {
  LEDGER_COLUMNS,
  LEDGER_KINDS,
  type LedgerEntry,
  type LedgerKind,
} from "./ledger-row";
export { type LedgerRowError, type ParsedLedger, parseLedger } from "./parse-ledger";
