// A test file's sandbox and database of one backend: opened together before its tests, closed
// after them. `opened` receives both, so the file keeps them in its own variables.
import { type GroundTruth, type RunningSandbox, startSandbox } from "@merchantkit/sandbox";
import { afterAll, beforeAll } from "vitest";
import type { DatabaseKind, Db } from "../db/database";
import { openTestDatabase, type TestDatabase } from "./databases";
import { postSandboxIssuing } from "./sandbox";

export function useSandboxAndDatabase(
  kind: DatabaseKind,
  opened: (both: { db: Db; sandbox: RunningSandbox }) => void,
): void {
  let database: TestDatabase | undefined;
  let sandbox: RunningSandbox | undefined;
  beforeAll(async () => {
    [database, sandbox] = await Promise.all([openTestDatabase(kind), startSandbox()]);
    opened({ db: database.db, sandbox });
  }, 120_000);
  afterAll(async () => {
    await sandbox?.close();
    await database?.dispose();
  });
}

/**
 * The sandbox emptied, its clock frozen at `at`, and card activity generated: the ground truth
 * a test stores and writes its ledger from.
 */
export async function generatedTruth(
  sandbox: RunningSandbox,
  at: number,
  spec: { seed: number; cards: number; cardTransactions: number; days: number },
): Promise<GroundTruth> {
  // The admin client's keep-alive socket may have idled out while the database opened: a
  // first cheap call takes the reset, if any.
  await sandbox.admin.faults().catch(() => undefined);
  await sandbox.admin.reset();
  await sandbox.admin.freezeClock(at);
  await postSandboxIssuing(sandbox, "/generate", spec);
  return (await sandbox.admin.state()) as unknown as GroundTruth;
}
