/**
 * apps/reconciler: pulls the service's records into Postgres (crash-safe, idempotent, never
 * downgrading a final status) and matches them against the merchant's ledger. The worker is
 * its CLI (`reconciler`); this module exports what the workspace's demo and scripts build on.
 */
export type { Command } from "./cli/command";
export { commandFlags, reportError } from "./cli/command-support";
export { progressPrinter } from "./cli/progress";
export { loadConfig } from "./config/load-config";
export { openDatabase } from "./db/connect";
export { queryText } from "./db/query-rows";
export { createScratchDatabase } from "./db/scratch-database";
export { EXIT } from "./exit-codes";
export { formatSeconds } from "./format-seconds";
export { importLedger } from "./ledger/import-ledger";
export { matchResultLines } from "./match/format-result";
export { type MatchRunResult, runMatch } from "./match/run-match";
export { renderHtml } from "./report/render-html";
export { renderText } from "./report/render-text";
export { loadReport } from "./report/report-data";
export { runSync } from "./sync/run-sync";
export { createSyncContext } from "./sync/sync-context";
export type { SyncProgress, SyncSummary } from "./sync/sync-types";
