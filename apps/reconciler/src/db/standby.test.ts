// Finance reads off a hot standby: the worker writes to the primary only, and the finance views,
// the report, `reconciler report` and the console's read pages (RECONCILER_READ_DATABASE_URL)
// answer on a real streaming standby with the primary's figures, the console's kept figures
// following the primary's writes as they replay. Two throwaway clusters on this machine
// (testing/standby.ts).
import type { GroundTruth, RunningSandbox } from "@merchantkit/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../cli/main";
import { reportPage } from "../console/console-pages";
import { startConsole } from "../console/console-server";
import { importLedger } from "../ledger/import-ledger";
import { runMatch } from "../match/run-match";
import { loadReport } from "../report/report-data";
import { writeLedger } from "../testing";
import { fakeIo } from "../testing/cli";
import {
  addConsoleUsers,
  type ConsoleFixture,
  consoleForm,
  consolePage,
  consoleSession,
  postConsoleForm,
  postSignIn,
} from "../testing/console";
import { testBackends } from "../testing/databases";
import { storeGroundTruth } from "../testing/ground-truth";
import { startGeneratedSandbox } from "../testing/sandbox";
import { type Standby, startStandby } from "../testing/standby";
import { addUser } from "../workflow/console-users";
import { openDatabase } from "./connect";
import type { Database } from "./database";
import { queryText } from "./query-rows";

const FINANCE_VIEWS = [
  "finance_daily_statement ORDER BY day, currency",
  "finance_open_breaks ORDER BY break_id",
  "finance_fees_by_type ORDER BY day, fee_type, currency",
];

describe.runIf(testBackends().includes("postgres"))("finance reads on a hot standby", () => {
  let clusters: Standby;
  let sandbox: RunningSandbox;
  let primary: Database;
  let standby: Database;

  beforeAll(async () => {
    clusters = await startStandby();
    const generated = await startGeneratedSandbox({ cards: 40, cardTransactions: 2_000, days: 10 });
    sandbox = generated.sandbox;
    const truth = (await sandbox.admin.state()) as unknown as GroundTruth;
    const asOf = new Date(generated.now);
    primary = await openDatabase({ url: clusters.primaryUrl, maxConnections: 4 });
    await storeGroundTruth(primary.db, truth, asOf);
    await importLedger(primary.db, writeLedger(truth, { seed: 3, asOf: generated.now }).csv);
    const run = await runMatch(primary.db, { asOf, maxSyncLagMs: 30 * 86_400_000 });
    expect(run.verdict).toBe("breaks");
    // Replayed: the standby has applied everything the primary wrote.
    const [at] = await queryText<{ lsn: string }>(
      primary.db,
      "SELECT pg_current_wal_lsn()::text AS lsn",
    );
    standby = await waitForReplay(clusters.standbyUrl, at?.lsn as string);
  }, 120_000);

  afterAll(async () => {
    await standby?.close();
    await primary?.close();
    await sandbox?.close();
    clusters?.stop();
  });

  it("answers the finance views and the report with the primary's figures", async () => {
    for (const view of FINANCE_VIEWS) {
      const on = (db: Database) => queryText(db.db, `SELECT * FROM ${view}`);
      const rows = await on(primary);
      expect(rows.length, view).toBeGreaterThan(0);
      expect(await on(standby), view).toEqual(rows);
    }
    expect(await loadReport(standby.db)).toEqual(await loadReport(primary.db));
  });

  it("never writes there, and is refused as the worker's own database", async () => {
    // The driver's error says the query failed; its cause says why.
    const refusal = (work: Promise<unknown>) =>
      work.then(
        () => "done",
        (e: Error) => `${e.message} ${(e.cause as Error | undefined)?.message ?? ""}`,
      );
    expect(await refusal(queryText(standby.db, "INSERT INTO match_totals VALUES (0)"))).toMatch(
      /read-only transaction/,
    );
    // Opened as the worker's database it would migrate: the standby refuses any write.
    expect(await refusal(openDatabase({ url: clusters.standbyUrl, maxConnections: 2 }))).toMatch(
      /read-only transaction/,
    );
  });

  it("serves the console's read pages from the standby, its actions and sessions on the primary", async () => {
    const passwords = await addConsoleUsers(primary.db);
    const running = await startConsole({ db: primary.db, readDb: standby.db, port: 0 });
    const f = {
      console: running,
      signIn: (name: "alice") => postSignIn(running.url, name, passwords[name]),
    } as unknown as ConsoleFixture;
    try {
      await replayed(primary, standby);
      // Signed in on the primary (a session is written there and read there at once).
      const alice = await consoleSession(f, "alice");
      const ctx = { actor: "alice", role: "approver" as const, formToken: alice.formToken };
      const primaryPage = async () =>
        moneySections(reportPage(await loadReport(primary.db, { queueLimit: 200 }), ctx));
      const first = await consolePage(f, "/", alice.cookie);
      expect(first).toMatch(/<p class="note" id="standby">Read from a standby: /);
      expect(moneySections(first)).toEqual(await primaryPage());

      // An accept from the console lands on the primary; the next page, read on the standby
      // once it has replayed the accept, shows the figures the primary's do.
      const [open] = await queryText<{ break_id: string }>(
        primary.db,
        "SELECT break_id FROM finance_open_breaks WHERE status = 'open' AND class <> 'proposed_match' ORDER BY break_id LIMIT 1",
      );
      const id = open?.break_id as string;
      const accept = (await consoleForm(f, id, "accept", alice.cookie)) as Record<string, string>;
      const res = await postConsoleForm(f, alice.cookie, {
        ...accept,
        text: "agreed on the standby test",
      });
      expect(res.status).toBe(303);
      const [accepted] = await queryText<{ accepted_by: string }>(
        primary.db,
        `SELECT accepted_by FROM break_workflow WHERE break_id = '${id}'`,
      );
      expect(accepted?.accepted_by).toBe("alice");
      const afterAccept = moneySections(await consolePage(f, "/", alice.cookie));
      expect(afterAccept).not.toEqual(moneySections(first));
      expect(afterAccept).toEqual(await primaryPage());

      // A write on the primary outside the console: shown once replayed.
      await queryText(
        primary.db,
        "UPDATE ledger_entries SET amount = amount - 1 WHERE entry_id = (SELECT min(entry_id) FROM ledger_entries)",
      );
      await replayed(primary, standby);
      const afterEdit = moneySections(await consolePage(f, "/", alice.cookie));
      expect(afterEdit).not.toEqual(afterAccept);
      expect(afterEdit).toEqual(await primaryPage());
    } finally {
      await running.close();
    }
  });

  it("serves `reconciler console`'s pages through RECONCILER_READ_DATABASE_URL", async () => {
    const { password } = await addUser(primary.db, { name: "carla", role: "viewer" });
    await replayed(primary, standby);
    const stop = new AbortController();
    const { io, err } = fakeIo({
      DATABASE_URL: clusters.primaryUrl,
      RECONCILER_READ_DATABASE_URL: clusters.standbyUrl,
    });
    const served = main(["console", "--port", "0"], { ...io, signal: stop.signal });
    try {
      let url: string | undefined;
      for (let attempt = 0; attempt < 300 && url === undefined; attempt++) {
        url = /console on (http:\/\/[^/]+)\//.exec(err.join("\n"))?.[1];
        if (url === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const signIn = await postSignIn(url as string, "carla", password);
      expect(signIn.status, err.join("\n")).toBe(303);
      const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0] as string;
      const page = await (await fetch(`${url}/`, { headers: { cookie } })).text();
      expect(page).toMatch(/<p class="note" id="standby">Read from a standby: /);
    } finally {
      stop.abort();
    }
    expect(await served).toBe(0);
  });

  it("serves `reconciler report` through RECONCILER_READ_DATABASE_URL", async () => {
    const env = {
      DATABASE_URL: "postgres://postgres@127.0.0.1:1/unreachable",
      RECONCILER_READ_DATABASE_URL: clusters.standbyUrl,
    };
    const { io, out, err } = fakeIo(env);
    expect(await main(["report", "--limit", "5"], io), err.join("\n")).toBe(0);
    const fromPrimary = fakeIo({ DATABASE_URL: clusters.primaryUrl });
    expect(await main(["report", "--limit", "5"], fromPrimary.io)).toBe(0);
    expect(out).toEqual(fromPrimary.out);
  });
});

/**
 * The report page's money sections (statement, bridge, fees): what the kept figures hold, apart
 * from the parts that move with the clock (the sync's lag) and the standby's note.
 */
function moneySections(html: string): string {
  const between = (from: string, to: string) =>
    html.slice(html.indexOf(from), html.indexOf(to, html.indexOf(from)));
  return [
    between("<h2>Daily statement", "<h2>Provider vs ledger"),
    between("<h2>Provider vs ledger", "<h2>Open differences"),
    between("<h2>Fees by type", "<h2>Sync health"),
  ].join("\n");
}

/** Waits until the standby `db` has replayed everything the primary wrote so far. */
async function replayed(primary: Database, standby: Database): Promise<void> {
  const [at] = await queryText<{ lsn: string }>(
    primary.db,
    "SELECT pg_current_wal_lsn()::text AS lsn",
  );
  for (let attempt = 0; attempt < 300; attempt++) {
    const [row] = await queryText<{ caught: boolean | string }>(
      standby.db,
      `SELECT pg_last_wal_replay_lsn() >= '${at?.lsn}'::pg_lsn AS caught`,
    );
    if (row?.caught === true || row?.caught === "t") return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the standby did not catch up in 30 s");
}

/** Opens the standby read-only once it has replayed the primary's WAL up to `lsn`. */
async function waitForReplay(url: string, lsn: string): Promise<Database> {
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      const database = await openDatabase({ url, readOnly: true, maxConnections: 2 });
      const [row] = await queryText<{ caught: boolean | string }>(
        database.db,
        `SELECT pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn AS caught`,
      );
      if (row?.caught === true || row?.caught === "t") return database;
      await database.close();
    } catch {
      // Not yet migrated there, or still starting.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the standby did not replay up to ${lsn} in 30 s`);
}
