/**
 * apps/reconciler: pulls the service's records into Postgres (crash-safe, idempotent, never
 * downgrading a final status) and matches them against the merchant's ledger.
 */
export type { Command, CommandIo, ParsedArgs } from "./cli/command";
export { commandFlags, reportError } from "./cli/command-support";
export { commands, findCommand } from "./cli/commands/index";
export { parseArgs, UsageError } from "./cli/parse-args";
export { progressPrinter } from "./cli/progress";
export * from "./config";
export * from "./db";
export { EXIT } from "./exit-codes";
export { formatSeconds } from "./format-seconds";
export * from "./ledger";
export * from "./match";
export { matchResultLines } from "./match/format-result";
export * from "./report";
export * from "./store";
export * from "./sync";
export * from "./webhook-receiver";
