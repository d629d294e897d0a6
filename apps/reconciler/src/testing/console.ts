// Test support: a migrated in-memory database with three breaks (one assigned to carol, one
// carrying a comment that tries to inject markup), four console accounts (alice and bob
// approvers, paula a preparer, vic a viewer) and the console serving it on a free port.

import type { SecondApprovalLimits } from "../config/second-approval";
import { type RunningConsole, startConsole } from "../console/console-server";
import type { DatabaseKind, Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { runMatch } from "../match/run-match";
import { applyBreakAction } from "../workflow/break-actions";
import { addUser } from "../workflow/console-users";
import { seedThreeBreaks, TEST_AS_OF } from "./breaks";
import { openTestDatabase, type TestDatabase } from "./databases";

/** The fixture's MERCHANT_NO and RECONCILER_ENTITIES: what ?entity= may name. */
export const CONSOLE_ENTITIES = { merchantNo: "M1000001", entities: ["SUB1"] };

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

/**
 * Two proposals (proposed_match breaks) beside the three breaks: settled USD clearings P1 and
 * P2 on card 900 and ledger entries E1 and E2 a few cents off naming keys the provider does not
 * have, which only the tolerant pass pairs. Answers the two breaks' ids (E1's, E2's).
 */
export async function seedTwoProposals(db: Db): Promise<string[]> {
  const at = "2026-05-01T12:00:00Z";
  const clearing = (no: string, amount: string) =>
    `('${no}', '900', 'CLEARING', 'S', '${at}', ${amount}, 'USD', ${amount}, 'USD', '${at}', '{}', '0', 1, 'sync')`;
  await queryText(
    db,
    `INSERT INTO card_transactions (txn_order_no, card_id, txn_type, txn_status, transaction_time,
       card_amount, card_currency, settle_amount, settle_currency, settle_time, raw, raw_hash,
       version, source)
     VALUES ${clearing("P1", "50.00")}, ${clearing("P2", "70.50")}`,
  );
  await queryText(
    db,
    `INSERT INTO ledger_entries (entry_id, kind, provider_ref, amount, currency, booked_at, card_id)
     VALUES ('E1', 'card_transaction', 'X-E1', -50.10, 'USD', '${at}', '900'),
       ('E2', 'card_transaction', 'X-E2', -70.95, 'USD', '${at}', '900')`,
  );
  await runMatch(db, { asOf: TEST_AS_OF, onIncomplete: "all", maxScopeShare: 1 });
  const rows = await queryText<{ break_id: string }>(
    db,
    `SELECT break_id FROM breaks WHERE class = 'proposed_match' AND status = 'open' ORDER BY entry_id`,
  );
  return rows.map((r) => r.break_id);
}

export interface ConsoleFixture {
  database: TestDatabase;
  console: RunningConsole;
  ids: string[];
  /** With `proposals`: the two proposals' break ids (seedTwoProposals). */
  proposals: string[];
  passwords: Record<ConsoleUserName, string>;
  /** Signs `name` in at the fixture's console (or `at`) with their password. */
  signIn(name: ConsoleUserName, at?: string): Promise<Response>;
  close(): Promise<void>;
}

export async function consoleFixture(
  kind: DatabaseKind = "pglite",
  opts: {
    secondApproval?: SecondApprovalLimits;
    log?: (line: string) => void;
    proposals?: boolean;
  } = {},
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
  const proposals = opts.proposals ? await seedTwoProposals(database.db) : [];
  const passwords = await addConsoleUsers(database.db);
  const running = await startConsole({
    db: database.db,
    port: 0,
    secondApproval: opts.secondApproval,
    entityConfig: CONSOLE_ENTITIES,
    log: opts.log,
  });
  return {
    database,
    console: running,
    ids,
    proposals,
    passwords,
    signIn: (name, at = running.url) => postSignIn(at, name, passwords[name]),
    async close() {
      await running.close();
      await database.dispose();
    },
  };
}

/** A signed-in session of `name` on the fixture's console: its cookie and its form token. */
export async function consoleSession(
  f: ConsoleFixture,
  name: ConsoleUserName,
): Promise<{ cookie: string; formToken: string }> {
  const res = await f.signIn(name);
  if (res.status !== 303) throw new Error(`${name} could not sign in: ${res.status}`);
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0] as string;
  const page = await (await fetch(`${f.console.url}/breaks`, { headers: { cookie } })).text();
  const formToken = /name="form_token" value="([^"]+)"/.exec(page)?.[1] as string;
  return { cookie, formToken };
}

/** The page at `path` as `cookie` sees it. */
export const consolePage = async (f: ConsoleFixture, path: string, cookie: string) =>
  (await fetch(`${f.console.url}${path}`, { headers: { cookie } })).text();

/** The hidden fields of the form `<id>-form` on break `breakId`'s page; undefined: not offered. */
export async function consoleForm(
  f: ConsoleFixture,
  breakId: string,
  id: string,
  cookie: string,
): Promise<Record<string, string> | undefined> {
  const page = await consolePage(f, `/breaks/${breakId}`, cookie);
  const form = new RegExp(`<form [^>]*action="([^"]+)" id="${id}-form">([\\s\\S]*?)</form>`).exec(
    page,
  );
  if (!form) return undefined;
  return Object.fromEntries([
    ["path", form[1] as string],
    ...[...(form[2] as string).matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)"/g)].map(
      (m) => [m[1] as string, (m[2] as string).replaceAll("&amp;", "&")],
    ),
  ]);
}

/** POSTs `form` (its `path` from consoleForm, or `path`) as the session `cookie`. */
export function postConsoleForm(
  f: ConsoleFixture,
  cookie: string,
  form: Record<string, string>,
  path = form.path as string,
): Promise<Response> {
  const { path: _path, ...fields } = form;
  return fetch(`${f.console.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie },
    body: new URLSearchParams(fields),
  });
}

/** The message of a refused answer's page (entities undone). */
export const alertOf = async (res: Response) =>
  (/<p class="error" role="alert">([^<]*)<\/p>/.exec(await res.text())?.[1] ?? "")
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'");
