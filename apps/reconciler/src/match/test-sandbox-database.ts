// A test file's sandbox and database of one backend: opened together before its tests, closed
// after them. `opened` receives both, so the file keeps them in its own variables.
import { type RunningSandbox, startSandbox } from "@merchantkit/sandbox";
import { afterAll, beforeAll } from "vitest";
import type { DatabaseKind, Db } from "../db/database";
import { openTestDatabase, type TestDatabase } from "../db/test-databases";

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
