// Test support: one cycle as `run` and each `schedule` tick print it (cycleOnce, off a
// terminal), without a report and, unless a sync context is given, without the sync: its exit
// code, its summary line and its stderr lines.
import { expect } from "vitest";
import { cycleOnce } from "../cli/commands/cycle-command";
import type { ReconcilerConfig } from "../config/reconciler-config";
import type { Database } from "../db/database";
import type { MatchOptions } from "../match/match-options";
import type { SyncContext } from "../sync/sync-types";
import { fakeIo } from "./cli";

export async function printedCycle(
  database: Database,
  ledger: Pick<ReconcilerConfig, "ledgerDir" | "ledgerQuery">,
  match: MatchOptions,
  sync?: SyncContext,
) {
  const config = { ...ledger, reportDir: undefined } as ReconcilerConfig;
  const { io, out, err } = fakeIo();
  const code = await cycleOnce(io, { config, database, sync, match });
  // Off a terminal, stdout is the summary line alone.
  expect(out).toHaveLength(1);
  return { code, summary: JSON.parse(out[0] as string), err };
}
