// A console account limited to entities (console_users.entities): sam, an approver limited to
// the sub-merchant SUB1, sees SUB1's break in the queue, its totals, its exports and its report
// only; the merchant's breaks answer 404 as unknown ones and every action on them is refused
// (nothing written), a manual match naming the merchant's entry is refused as naming no entry;
// an account with no limit still sees and acts on every entity.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryText } from "../db/query-rows";
import {
  alertOf,
  type ConsoleFixture,
  consoleFixture,
  consoleForm,
  consolePage,
  consoleSession,
  postConsoleForm,
  postSignIn,
} from "../testing/console";
import { testBackends } from "../testing/databases";
import { addUser } from "../workflow/console-users";

let f: ConsoleFixture;
let sam: { cookie: string; formToken: string };
/** SUB1's break (the fixture's HKD one, moved to SUB1 with its ledger entry). */
let own: string;
/** The merchant's breaks (EUR, USD). */
let merchants: string[];

describe.each(testBackends())("a console account limited to entities on %s", (kind) => {
  beforeAll(async () => {
    f = await consoleFixture(kind);
    const db = f.database.db;
    [merchants, own] = [f.ids.slice(0, 2), f.ids[2] as string];
    await queryText(db, `UPDATE ledger_entries SET entity = 'SUB1' WHERE entry_id = 'L-3'`);
    await queryText(db, `UPDATE breaks SET entity = 'SUB1' WHERE break_id = '${own}'`);
    const { password } = await addUser(db, { name: "sam", role: "approver", entities: ["SUB1"] });
    const res = await postSignIn(f.console.url, "sam", password);
    const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0] as string;
    const page = await consolePage(f, "/breaks", cookie);
    sam = { cookie, formToken: /name="form_token" value="([^"]+)"/.exec(page)?.[1] as string };
  }, 120_000);
  afterAll(async () => {
    await f?.close();
  });

  const get = (path: string, cookie = sam.cookie) =>
    fetch(`${f.console.url}${path}`, { headers: { cookie } });
  const csvRows = async (path: string) =>
    (await (await get(path)).text()).trim().split("\r\n").slice(1);

  it("shows the queue, its totals and the next-break link of its entities only", async () => {
    const queue = await consolePage(f, "/breaks?status=all", sam.cookie);
    expect(queue).toContain("signed in as sam (approver; entities SUB1)");
    expect(queue).toContain(own);
    for (const id of merchants) expect(queue).not.toContain(id);
    expect(/<p id="count">([^<]*)</.exec(queue)?.[1]).toBe("1 of 1 break");
    const totals = /<table[^>]*id="totals">([\s\S]*?)<\/table>/.exec(queue)?.[1] ?? "";
    expect(totals).toContain("HKD");
    expect(totals).not.toMatch(/EUR|USD/);
    // The merchant's own filter shows nothing of the merchant.
    const merchantQueue = await consolePage(f, "/breaks?entity=(merchant)", sam.cookie);
    expect(/<p id="count">([^<]*)</.exec(merchantQueue)?.[1]).toBe("0 of 0 breaks");
    // No other open break of SUB1: no next link, never one to the merchant's.
    const page = await consolePage(f, `/breaks/${own}`, sam.cookie);
    expect(page).not.toContain('id="next-break"');
    // An account without a limit goes on to the merchant's breaks.
    const alice = await consoleSession(f, "alice");
    expect(await consolePage(f, `/breaks/${own}`, alice.cookie)).toContain('id="next-break"');
  });

  it("answers another entity's break page 404 as an unknown break", async () => {
    for (const id of merchants) {
      const res = await get(`/breaks/${id}`);
      expect([res.status, await alertOf(res)]).toEqual([404, `no break has the id ${id}`]);
    }
    expect((await get(`/breaks/${own}`)).status).toBe(200);
  });

  it("refuses every action on another entity's break (404, nothing written) and acts on its own", async () => {
    const id = merchants[0] as string;
    const token = { form_token: sam.formToken, seen_action: "0" };
    const attempts: [string, Record<string, string>][] = [
      ["actions", { action: "comment", text: "hello" }],
      ["actions", { action: "assign", text: "sam" }],
      ["actions", { action: "accept", text: "fine" }],
      ["write-off", { account: "6800", text: "fee" }],
      ["decide", { decision: "reject", text: "no" }],
      ["approval", { decision: "approve" }],
      ["match", { entries: "L-1", records: "T-1", text: "same" }],
    ];
    for (const [path, form] of attempts) {
      const res = await postConsoleForm(
        f,
        sam.cookie,
        { ...form, ...token },
        `/breaks/${id}/${path}`,
      );
      expect([path, res.status, await alertOf(res)]).toEqual([
        path,
        404,
        `no break has the id ${id}`,
      ]);
    }
    const [actions] = await queryText<{ n: string }>(
      f.database.db,
      `SELECT count(*) AS n FROM break_actions WHERE break_id = '${id}'`,
    );
    expect(Number(actions?.n)).toBe(0);
    // From its own break's page, a manual match naming the merchant's entry names no entry.
    const match = (await consoleForm(f, own, "match", sam.cookie)) as Record<string, string>;
    const refused = await postConsoleForm(f, sam.cookie, {
      ...match,
      entries: "L-1",
      records: "T-1",
      text: "same money",
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("entries: no ledger entry has the id L-1");
    // Its own break: written under its name.
    const comment = (await consoleForm(f, own, "comment", sam.cookie)) as Record<string, string>;
    const ok = await postConsoleForm(f, sam.cookie, { ...comment, text: "asked SUB1" });
    expect(ok.status).toBe(303);
    const write = (await consoleForm(f, own, "write_off", sam.cookie)) as Record<string, string>;
    expect(
      (await postConsoleForm(f, sam.cookie, { ...write, account: "6800", text: "SUB1 fee" }))
        .status,
    ).toBe(303);
  });

  it("refuses to undo a manual match holding another entity's record (nothing written)", async () => {
    // A match made before manual matches were held to one entity: the merchant's L-2 with SUB1's L-3.
    const db = f.database.db;
    const [made] = await queryText<{ id: string }>(
      db,
      `INSERT INTO manual_matches (status, currency, amount, actor, reason)
        VALUES ('active', 'USD', 0, 'alice', 'older match') RETURNING id::text AS id`,
    );
    const matchId = made?.id as string;
    await queryText(
      db,
      `INSERT INTO manual_match_records (match_id, side, record_kind, record_ref, amount, currency,
          break_id)
        VALUES (${matchId}, 'ledger', 'ledger_entry', 'L-2', -99.99, 'USD', '${merchants[1]}'),
          (${matchId}, 'ledger', 'ledger_entry', 'L-3', -10, 'HKD', '${own}')`,
    );
    const form = (await consoleForm(f, own, `unmatch-${matchId}`, sam.cookie)) as Record<
      string,
      string
    >;
    const res = await postConsoleForm(f, sam.cookie, { ...form, text: "not ours" });
    expect([res.status, await alertOf(res)]).toEqual([
      400,
      `matchId: no manual match has the id ${matchId}`,
    ]);
    const [m] = await queryText(db, `SELECT status FROM manual_matches WHERE id = ${matchId}`);
    expect(m).toEqual({ status: "active" });
    const [undone] = await queryText<{ n: string }>(
      db,
      "SELECT count(*) AS n FROM break_actions WHERE action = 'unmatch'",
    );
    expect(Number(undone?.n)).toBe(0);
    await queryText(db, `UPDATE manual_matches SET status = 'unmatched' WHERE id = ${matchId}`);
  });

  it("exports its entities' breaks, journal and audit rows only", async () => {
    // The merchant's break written off and commented by an account without a limit.
    const alice = await consoleSession(f, "alice");
    const id = merchants[0] as string;
    const write = (await consoleForm(f, id, "write_off", alice.cookie)) as Record<string, string>;
    const done = await postConsoleForm(f, alice.cookie, { ...write, account: "6800", text: "x" });
    expect(done.status).toBe(303);
    const breakIds = (rows: string[], column: number) => [
      ...new Set(rows.map((l) => l.split(",")[column])),
    ];
    for (const format of ["csv", "xlsx"])
      expect((await get(`/export/breaks.${format}`)).status).toBe(200);
    expect(breakIds(await csvRows("/export/breaks.csv?status=all"), 0)).toEqual([own]);
    expect(breakIds(await csvRows("/export/journal.csv"), 5)).toEqual([own]);
    expect(breakIds(await csvRows("/export/audit.csv"), 1)).toEqual([own]);
    // Alice's exports hold both entities'.
    const all = await (await get("/export/journal.csv", alice.cookie)).text();
    expect(all).toContain(id);
    expect(all).toContain(own);
  });

  // A page's form token is random text: it may spell a currency code.
  const withoutTokens = (html: string) => html.replace(/name="form_token" value="[^"]*"/g, "");

  it("shows the report of its entities only, without the platform's total", async () => {
    const page = await consolePage(f, "/", sam.cookie);
    expect(page).toContain("Reconciliation report of entity SUB1");
    expect(page).not.toContain("the table above is the platform");
    expect(page).toMatch(/HKD/);
    expect(withoutTokens(page)).not.toMatch(/EUR|USD/);
    for (const id of merchants) expect(page).not.toContain(id);
    const other = await get("/?entity=(merchant)");
    expect(other.status).toBe(404);
    expect(await alertOf(other)).toBe("no entity (merchant) is among those your account sees");
    // An account without a limit: every entity, or the one it asks for.
    const alice = await consoleSession(f, "alice");
    const whole = await consolePage(f, "/", alice.cookie);
    expect(whole).toContain("the table above is the platform&#39;s total");
    const one = await consolePage(f, "/?entity=sub1", alice.cookie);
    expect(one).toContain("Reconciliation report of entity SUB1");
    expect(withoutTokens(one)).not.toMatch(/EUR|USD/);
  });

  it("takes ?entity= as the CLI's --entity does: MERCHANT_NO is the merchant, any other unknown one a 400 naming the rule", async () => {
    const alice = await consoleSession(f, "alice");
    const as = (path: string) => get(path, alice.cookie);
    const merchant = await as("/?entity=M1000001");
    expect(merchant.status).toBe(200);
    const page = await merchant.text();
    expect(page).toContain("Reconciliation report of entity (merchant)");
    for (const id of merchants) expect(page).toContain(id);
    const rule =
      'entity: must be the merchant (MERCHANT_NO M1000001) or a sub-merchant of RECONCILER_ENTITIES (SUB1); got "M100002"; (merchant) also names the merchant';
    for (const path of [
      "/?entity=M100002",
      "/breaks?entity=M100002",
      "/export/breaks.csv?entity=M100002",
    ]) {
      const res = await as(path);
      expect([res.status, await alertOf(res)], path).toEqual([400, rule]);
    }
    const queue = await consolePage(f, "/breaks?status=all&entity=m1000001", alice.cookie);
    expect(/<p id="count">([^<]*)</.exec(queue)?.[1]).toBe("2 of 2 breaks");
  });
});
