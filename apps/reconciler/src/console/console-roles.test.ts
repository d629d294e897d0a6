// Roles in the console, enforced on the server: a viewer reads and downloads exports but is
// refused every action (403 naming the role needed, nothing written) and is offered no form; a
// preparer comments, assigns and rejects proposals but cannot accept, write off or confirm; an
// approver does all of it. The buttons: confirm and reject a proposal, write a break off (one
// journal entry, the break accepted), and the exports of the queue's current filter as CSV and
// XLSX, each through the workflow functions, the actor always the signed-in account.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryText } from "../db/query-rows";
import { runMatch } from "../match/run-match";
import { TEST_AS_OF } from "../testing/breaks";
import {
  alertOf,
  type ConsoleFixture,
  consoleFixture,
  consoleForm,
  consolePage,
  consoleSession,
  postConsoleForm,
} from "../testing/console";
import { testBackends } from "../testing/databases";
import { breakHistory, showBreak } from "../workflow/break-queries";
import { matchManually } from "../workflow/manual-match";

let f: ConsoleFixture;

const FORMS = ["accept", "write_off", "confirm", "reject", "comment", "assign", "reopen"];

/** Which of FORMS break `id`'s page offers to `cookie`. */
async function offered(id: string, cookie: string): Promise<string[]> {
  const page = await consolePage(f, `/breaks/${id}`, cookie);
  return FORMS.filter((form) => page.includes(`id="${form}-form"`));
}

describe.each(testBackends())("console roles and close actions on %s", (kind) => {
  beforeAll(async () => {
    f = await consoleFixture(kind, { proposals: true });
  }, 120_000);
  afterAll(async () => {
    await f?.close();
  });

  it("offers each role only its forms and refuses the rest on the server (403, nothing written)", async () => {
    const [vic, paula, alice] = [
      await consoleSession(f, "vic"),
      await consoleSession(f, "paula"),
      await consoleSession(f, "alice"),
    ];
    const proposal = f.proposals[0] as string;
    const id = f.ids[2] as string; // HKD, open, unassigned
    expect(await offered(proposal, vic.cookie)).toEqual([]);
    expect(await consolePage(f, `/breaks/${id}`, vic.cookie)).toContain('id="read-only"');
    expect(await offered(proposal, paula.cookie)).toEqual(["reject", "comment", "assign"]);
    expect(await offered(id, paula.cookie)).toEqual(["comment", "assign"]);
    expect(await offered(proposal, alice.cookie)).toEqual([
      "accept",
      "write_off",
      "confirm",
      "reject",
      "comment",
      "assign",
    ]);
    expect(await consolePage(f, "/breaks", vic.cookie)).toContain("signed in as vic (viewer)");

    // Every action the role lacks, sent by hand with the session's own form token.
    const seen = { seen_action: "0" };
    const attempts: [
      string,
      { cookie: string; formToken: string },
      string,
      Record<string, string>,
    ][] = [
      ["vic", vic, `/breaks/${id}/actions`, { action: "comment", text: "hello", ...seen }],
      ["vic", vic, `/breaks/${proposal}/decide`, { decision: "reject", text: "no", ...seen }],
      ["paula", paula, `/breaks/${id}/actions`, { action: "accept", text: "fine", ...seen }],
      ["paula", paula, `/breaks/${id}/write-off`, { account: "6800", text: "fee", ...seen }],
      ["paula", paula, `/breaks/${proposal}/decide`, { decision: "confirm", ...seen }],
      ["paula", paula, `/breaks/${id}/approval`, { decision: "approve", ...seen }],
    ];
    const answers: [string, number, string][] = [];
    for (const [who, s, path, form] of attempts) {
      const res = await postConsoleForm(f, s.cookie, { ...form, form_token: s.formToken }, path);
      answers.push([who, res.status, await alertOf(res)]);
    }
    expect(answers).toEqual([
      ["vic", 403, "vic is a viewer: comment needs a preparer"],
      ["vic", 403, "vic is a viewer: reject needs a preparer"],
      ["paula", 403, "paula is a preparer: accept needs an approver"],
      ["paula", 403, "paula is a preparer: write off needs an approver"],
      ["paula", 403, "paula is a preparer: confirm needs an approver"],
      ["paula", 403, "paula is a preparer: approve needs an approver"],
    ]);
    expect(await breakHistory(f.database.db, id)).toEqual([]);
    expect(await breakHistory(f.database.db, proposal)).toEqual([]);

    // What the preparer may do is written under her account's name.
    const comment = (await consoleForm(f, id, "comment", paula.cookie)) as Record<string, string>;
    const res = await postConsoleForm(f, paula.cookie, { ...comment, text: "asked the bank" });
    expect(res.status).toBe(303);
    expect((await breakHistory(f.database.db, id)).map((h) => [h.actor, h.action, h.text])).toEqual(
      [["paula", "comment", "asked the bank"]],
    );
  });

  it("rejects a proposal as a preparer and confirms one as an approver; the next run applies both", async () => {
    const [e1, e2] = f.proposals as [string, string];
    const paula = await consoleSession(f, "paula");
    const alice = await consoleSession(f, "alice");
    const reject = (await consoleForm(f, e2, "reject", paula.cookie)) as Record<string, string>;
    // A reject needs its reason: 400, the page again, nothing written.
    const bare = await postConsoleForm(f, paula.cookie, { ...reject, text: "  " });
    expect([bare.status, await alertOf(bare)]).toEqual([
      400,
      "reason is required: why the proposal is rejected",
    ]);
    expect(await breakHistory(f.database.db, e2)).toEqual([]);
    const rejected = await postConsoleForm(f, paula.cookie, {
      ...reject,
      text: "another purchase",
    });
    expect([rejected.status, rejected.headers.get("location")]).toEqual([303, `/breaks/${e2}`]);
    const confirm = (await consoleForm(f, e1, "confirm", alice.cookie)) as Record<string, string>;
    expect((await postConsoleForm(f, alice.cookie, { ...confirm, text: "" })).status).toBe(303);
    const decided = async (id: string) =>
      (await breakHistory(f.database.db, id)).map((h) => [h.actor, h.action, h.text]);
    expect(await decided(e2)).toEqual([["paula", "reject", "another purchase"]]);
    expect(await decided(e1)).toEqual([["alice", "confirm", ""]]);
    // Decided once: the form sent again is told it is decided already, nothing written.
    const again = await postConsoleForm(f, alice.cookie, confirm);
    expect([again.status, await alertOf(again)]).toEqual([
      409,
      `break ${e1} is already confirmed by alice; the next match run applies it`,
    ]);
    await runMatch(f.database.db, { asOf: TEST_AS_OF, onIncomplete: "all", maxScopeShare: 1 });
    expect((await showBreak(f.database.db, e1))?.break.status).toBe("resolved");
    const left = await queryText<{ class: string; entry_id: string | null }>(
      f.database.db,
      `SELECT class, entry_id FROM breaks WHERE status = 'open' AND (entry_id IN ('E1', 'E2')
        OR provider_ref IN ('P1', 'P2')) ORDER BY class, entry_id`,
    );
    expect(left.map((b) => b.class).sort()).toEqual(["missing_at_provider", "missing_in_ledger"]);
  });

  it("writes a break off from the console: one journal entry by the signed-in approver, the break accepted; a bad account keeps what was typed", async () => {
    const alice = await consoleSession(f, "alice");
    const id = f.ids[2] as string; // -10 HKD booked, no provider record
    const form = (await consoleForm(f, id, "write_off", alice.cookie)) as Record<string, string>;
    expect(form.path).toBe(`/breaks/${id}/write-off`);
    const bad = await postConsoleForm(f, alice.cookie, {
      ...form,
      account: "=SUM(A1)",
      text: "bank charge, FIN-12",
    });
    expect(bad.status).toBe(400);
    const page = await bad.text();
    expect(page).toContain("account must be 1–64 letters, digits");
    expect(/id="write_off-form">[\s\S]*?<textarea[^>]*>([^<]*)<\/textarea>/.exec(page)?.[1]).toBe(
      "bank charge, FIN-12",
    );
    const ok = await postConsoleForm(f, alice.cookie, {
      ...form,
      account: "6800 Bank fees",
      text: "bank charge, FIN-12",
      date: "2026-05-31",
    });
    expect(ok.status).toBe(303);
    const journal = await queryText(
      f.database.db,
      `SELECT entry_date::text AS day, account, amount::text AS amount, currency, actor, reason
        FROM journal_entries WHERE break_id = '${id}'`,
    );
    expect(journal).toEqual([
      {
        day: "2026-05-31",
        account: "6800 Bank fees",
        amount: "10",
        currency: "HKD",
        actor: "alice",
        reason: "bank charge, FIN-12",
      },
    ]);
    expect((await showBreak(f.database.db, id))?.break).toMatchObject({
      status: "accepted",
      acceptedBy: "alice",
    });
    expect(await offered(id, alice.cookie)).toEqual(["comment", "assign", "reopen"]);
  });

  it("downloads the journal, the breaks and the audit trail of the current filter as CSV and XLSX, for a viewer too", async () => {
    const vic = await consoleSession(f, "vic");
    const queue = await consolePage(f, "/breaks?status=all&currency=hkd", vic.cookie);
    const href = (id: string) =>
      new RegExp(`href="([^"]+)" id="${id}"`).exec(queue)?.[1]?.replaceAll("&amp;", "&");
    expect(href("export-journal-csv")).toBe("/export/journal.csv?status=all&currency=HKD");
    const get = (path: string) =>
      fetch(`${f.console.url}${path}`, { headers: { cookie: vic.cookie } });
    const journal = await get(href("export-journal-csv") as string);
    expect(journal.headers.get("content-disposition")).toBe(
      'attachment; filename="reconciler-journal.csv"',
    );
    const lines = (await journal.text()).trim().split("\r\n");
    expect(lines[0]).toBe(
      "id,entry_date,account,amount,currency,break_id,reference,actor,reason,audit_row,created_at",
    );
    expect(lines.slice(1).map((l) => l.split(",").slice(2, 5))).toEqual([
      ["6800 Bank fees", "10", "HKD"],
    ]);
    const breaks = (await (await get(href("export-breaks-csv") as string)).text())
      .trim()
      .split("\r\n");
    expect(breaks.slice(1).map((l) => l.split(",").slice(2, 5))).toEqual([
      ["accepted", "P1", "HKD"],
    ]);
    const audit = (await (await get(href("export-audit-csv") as string)).text())
      .trim()
      .split("\r\n");
    expect(audit.slice(1).map((l) => l.split(",").slice(3, 5))).toEqual([
      ["paula", "comment"],
      ["alice", "write_off"],
    ]);
    const xlsx = await get(href("export-breaks-xlsx") as string);
    expect(xlsx.headers.get("content-type")).toBe(
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    expect(
      Buffer.from(await xlsx.arrayBuffer())
        .subarray(0, 2)
        .toString(),
    ).toBe("PK");
    expect((await get("/export/secrets.csv")).status).toBe(404);
    expect((await get("/export/breaks.pdf")).status).toBe(404);
    expect((await fetch(`${f.console.url}/export/breaks.csv`, { redirect: "manual" })).status).toBe(
      303,
    );
  });

  it("matches records manually from a break page as an approver, prefilled with the break's own; a preparer is offered no form and refused", async () => {
    const at = "2026-05-02T12:00:00Z";
    await queryText(
      f.database.db,
      `INSERT INTO card_transactions (txn_order_no, card_id, txn_type, txn_status, transaction_time,
         card_amount, card_currency, settle_amount, settle_currency, settle_time, raw, raw_hash,
         version, source)
       VALUES ('P9', '901', 'CLEARING', 'S', '${at}', 60.00, 'USD', 60.00, 'USD', '${at}', '{}', '0', 1, 'sync')`,
    );
    await queryText(
      f.database.db,
      `INSERT INTO ledger_entries (entry_id, kind, provider_ref, amount, currency, booked_at, card_id)
       VALUES ('E9', 'card_transaction', 'X-E9', -60.00, 'USD', '${at}', '902')`,
    );
    await runMatch(f.database.db, { asOf: TEST_AS_OF, onIncomplete: "all", maxScopeShare: 1 });
    const [row] = await queryText<{ break_id: string }>(
      f.database.db,
      "SELECT break_id FROM breaks WHERE entry_id = 'E9' AND status = 'open'",
    );
    const id = row?.break_id as string;
    const paula = await consoleSession(f, "paula");
    expect(await consoleForm(f, id, "match", paula.cookie)).toBeUndefined();
    const alice = await consoleSession(f, "alice");
    const form = (await consoleForm(f, id, "match", alice.cookie)) as Record<string, string>;
    expect(form.path).toBe(`/breaks/${id}/match`);
    // Prefilled with the break's own record: the ledger entry E9.
    expect(await consolePage(f, `/breaks/${id}`, alice.cookie)).toMatch(
      /<input name="entries" type="text" required maxlength="100" value="E9">/,
    );
    const refused = await postConsoleForm(f, paula.cookie, {
      ...form,
      form_token: paula.formToken,
      entries: "E9",
      records: "P9",
      text: "same payment",
    });
    expect([refused.status, await alertOf(refused)]).toEqual([
      403,
      expect.stringContaining("match needs an approver"),
    ]);
    const ok = await postConsoleForm(f, alice.cookie, {
      ...form,
      entries: "E9",
      records: "P9",
      text: "same payment, the key mistyped",
    });
    expect(ok.status).toBe(303);
    expect(
      await queryText(
        f.database.db,
        "SELECT status, actor, reason FROM manual_matches ORDER BY id DESC LIMIT 1",
      ),
    ).toEqual([{ status: "active", actor: "alice", reason: "same payment, the key mistyped" }]);
  });
  it("offers Unmatch on a break of a manual match, before and after the run applies it; a preparer is refused (403) and a reason is required", async () => {
    const at = "2026-05-03T12:00:00Z";
    await queryText(
      f.database.db,
      `INSERT INTO card_transactions (txn_order_no, card_id, txn_type, txn_status, transaction_time,
         card_amount, card_currency, settle_amount, settle_currency, settle_time, raw, raw_hash,
         version, source)
       VALUES ('P8', '801', 'CLEARING', 'S', '${at}', 40.00, 'USD', 40.00, 'USD', '${at}', '{}', '0', 1, 'sync'),
         ('P7', '701', 'CLEARING', 'S', '${at}', 30.00, 'USD', 30.00, 'USD', '${at}', '{}', '0', 1, 'sync')`,
    );
    await queryText(
      f.database.db,
      `INSERT INTO ledger_entries (entry_id, kind, provider_ref, amount, currency, booked_at, card_id)
       VALUES ('E8', 'card_transaction', 'X-E8', -40.00, 'USD', '${at}', '802'),
         ('E7', 'card_transaction', 'X-E7', -30.00, 'USD', '${at}', '702')`,
    );
    const run = () =>
      runMatch(f.database.db, { asOf: TEST_AS_OF, onIncomplete: "all", maxScopeShare: 1 });
    await run();
    const [row] = await queryText<{ break_id: string }>(
      f.database.db,
      "SELECT break_id FROM breaks WHERE entry_id = 'E8' AND status = 'open'",
    );
    const id = row?.break_id as string;
    const alice = await consoleSession(f, "alice");
    const paula = await consoleSession(f, "paula");
    // No manual match yet: nothing to undo.
    expect(await consolePage(f, `/breaks/${id}`, alice.cookie)).not.toContain("Unmatch");
    const { matchId } = await matchManually(f.database.db, {
      entries: ["E8"],
      records: ["P8"],
      actor: "bob",
      reason: "same payment",
    });
    const other = await matchManually(f.database.db, {
      entries: ["E7"],
      records: ["P7"],
      actor: "bob",
      reason: "another pair",
    });
    const formId = `unmatch-${matchId}`;
    // Before the run: the break is still open and names its match.
    expect(await consoleForm(f, id, formId, alice.cookie)).toMatchObject({
      path: `/breaks/${id}/unmatch`,
      match_id: matchId,
    });
    await run();
    expect((await showBreak(f.database.db, id))?.break.status).toBe("resolved");
    expect(
      await queryText(
        f.database.db,
        `SELECT 1 AS x FROM matches WHERE match_id = 'manual:${matchId}'`,
      ),
    ).toHaveLength(1);
    // After it: resolved by the group manual:<id>, still offered (a resolved break's one action
    // besides a comment).
    const page = await consolePage(f, `/breaks/${id}`, alice.cookie);
    expect(page).toContain(`Manual match ${matchId} (group manual:${matchId}, -40.00 USD) by bob`);
    const form = (await consoleForm(f, id, formId, alice.cookie)) as Record<string, string>;
    expect(form).toBeDefined();
    expect(await consoleForm(f, id, formId, paula.cookie)).toBeUndefined();
    const refused = await postConsoleForm(f, paula.cookie, {
      ...form,
      form_token: paula.formToken,
      text: "wrong pair",
    });
    expect([refused.status, await alertOf(refused)]).toEqual([
      403,
      expect.stringContaining("unmatch needs an approver"),
    ]);
    const noReason = await postConsoleForm(f, alice.cookie, {
      ...form,
      form_token: alice.formToken,
      text: "",
    });
    expect([noReason.status, await alertOf(noReason)]).toEqual([
      400,
      expect.stringContaining("reason is required"),
    ]);
    // A match of another break is not undone from this page.
    const elsewhere = await postConsoleForm(f, alice.cookie, {
      ...form,
      form_token: alice.formToken,
      match_id: other.matchId,
      text: "x",
    });
    expect([elsewhere.status, await alertOf(elsewhere)]).toEqual([
      400,
      expect.stringContaining(`manual match ${other.matchId} holds no record of break ${id}`),
    ]);
    expect(
      await queryText(
        f.database.db,
        `SELECT status FROM manual_matches WHERE id IN (${matchId}, ${other.matchId})`,
      ),
    ).toEqual([{ status: "active" }, { status: "active" }]);
    const ok = await postConsoleForm(f, alice.cookie, {
      ...form,
      form_token: alice.formToken,
      text: "not the same payment after all",
    });
    expect(ok.status).toBe(303);
    expect(
      await queryText(
        f.database.db,
        `SELECT status, ended_by, ended_reason FROM manual_matches WHERE id = ${matchId}`,
      ),
    ).toEqual([
      { status: "unmatched", ended_by: "alice", ended_reason: "not the same payment after all" },
    ]);
    expect((await breakHistory(f.database.db, id)).at(-1)).toMatchObject({
      actor: "alice",
      action: "unmatch",
      text: `manual match ${matchId} undone: not the same payment after all`,
    });
    // Undone: the next run gives the records their breaks back, and the page offers no Unmatch.
    await run();
    const [back] = await queryText<{ break_id: string }>(
      f.database.db,
      "SELECT break_id FROM breaks WHERE entry_id = 'E8' AND status = 'open'",
    );
    expect(back?.break_id).toBe(id);
    expect(await consoleForm(f, id, formId, alice.cookie)).toBeUndefined();
  });
});
