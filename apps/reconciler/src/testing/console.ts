// Test support: a migrated in-memory database with three breaks (one assigned to carol, one
// carrying a comment that tries to inject markup), four console accounts (alice and bob
// approvers, paula a preparer, vic a viewer) and the console serving it on a free port.

import type { SecondApprovalLimits } from "../config/second-approval";
import { type RunningConsole, startConsole } from "../console/console-server";
import type { DatabaseKind, Db } from "../db/database";
import { applyBreakAction } from "../workflow/break-actions";
import { addUser } from "../workflow/console-users";
import { seedThreeBreaks } from "./breaks";
import { openTestDatabase, type TestDatabase } from "./databases";

export const HOSTILE = `<img src=x onerror="document.title='pwned'">`;

/** The fixture's accounts and their roles. */
export const CONSOLE_USERS = {
  alice: "approver",
  bob: "approver",
  paula: "preparer",
  vic: "viewer",
} as const;
export type ConsoleUserName = keyof typeof CONSOLE_USERS;

/** Adds CONSOLE_USERS to `db`; answers each one's password. */
export async function addConsoleUsers(db: Db): Promise<Record<ConsoleUserName, string>> {
  const passwords: Partial<Record<ConsoleUserName, string>> = {};
  for (const [name, role] of Object.entries(CONSOLE_USERS))
    passwords[name as ConsoleUserName] = (await addUser(db, { name, role })).password;
  return passwords as Record<ConsoleUserName, string>;
}

/** POSTs the sign-in form to the console at `at` (the redirect not followed). */
export const postSignIn = (at: string, name: string, password: string) =>
  fetch(`${at}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ name, password }),
  });

export interface ConsoleFixture {
  database: TestDatabase;
  console: RunningConsole;
  ids: string[];
  passwords: Record<ConsoleUserName, string>;
  /** Signs `name` in at the fixture's console (or `at`) with their password. */
  signIn(name: ConsoleUserName, at?: string): Promise<Response>;
  close(): Promise<void>;
}

export async function consoleFixture(
  kind: DatabaseKind = "pglite",
  opts: { secondApproval?: SecondApprovalLimits; log?: (line: string) => void } = {},
): Promise<ConsoleFixture> {
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
  const passwords = await addConsoleUsers(database.db);
  const running = await startConsole({ db: database.db, port: 0, ...opts });
  return {
    database,
    console: running,
    ids,
    passwords,
    signIn: (name, at = running.url) => postSignIn(at, name, passwords[name]),
    async close() {
      await running.close();
      await database.dispose();
    },
  };
}
