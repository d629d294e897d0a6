// Test support: a migrated in-memory database with three breaks (one assigned to carol, one
// carrying a comment that tries to inject markup) and the console serving it on a free port.

import { type RunningConsole, startConsole } from "../console/console-server";
import type { DatabaseKind } from "../db/database";
import { applyBreakAction } from "../workflow/break-actions";
import { seedThreeBreaks } from "./breaks";
import { openTestDatabase, type TestDatabase } from "./databases";

export const TEST_TOKEN = "test-console-token-0123456789";
export const HOSTILE = `<img src=x onerror="document.title='pwned'">`;

export interface ConsoleFixture {
  database: TestDatabase;
  console: RunningConsole;
  ids: string[];
  close(): Promise<void>;
}

export async function consoleFixture(kind: DatabaseKind = "pglite"): Promise<ConsoleFixture> {
  const database = await openTestDatabase(kind);
  const ids = await seedThreeBreaks(database.db);
  await applyBreakAction(database.db, {
    breakId: ids[1] as string,
    action: "assign",
    actor: "bob",
    text: "carol",
  });
  await applyBreakAction(database.db, {
    breakId: ids[1] as string,
    action: "comment",
    actor: "bob",
    text: HOSTILE,
  });
  const running = await startConsole({ db: database.db, token: TEST_TOKEN, port: 0 });
  return {
    database,
    console: running,
    ids,
    async close() {
      await running.close();
      await database.dispose();
    },
  };
}
