// Maker-checker in the console (RECONCILER_SECOND_APPROVAL_ABOVE, workflow/approvals.ts): an
// accept or write-off above its currency's amount becomes a pending request; the approver who
// asked cannot approve it (403) and a preparer cannot either; a second approver approves it (the
// accept or write-off applied as the first approver's, both in the audit trail) or declines it
// (nothing applied). At or below the amount it applies at once. A run changing the break's
// figures in between makes the approval refused (409).
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
} from "../testing/console";
import { testBackends } from "../testing/databases";
import { breakHistory, showBreak } from "../workflow/break-queries";

let f: ConsoleFixture;

const trail = async (id: string) =>
  (await breakHistory(f.database.db, id)).map((h) => [h.actor, h.action, h.text]);

describe.each(testBackends())("maker-checker in the console on %s", (kind) => {
  beforeAll(async () => {
    // EUR above 1,000.00 and every other currency above 50 need a second approver.
    f = await consoleFixture(kind, {
      secondApproval: { byCurrency: { EUR: "1000.00" }, other: "50" },
    });
  }, 120_000);
  afterAll(async () => {
    await f?.close();
  });

  it("holds an accept above the amount for a second, different approver, who approves it", async () => {
    const [alice, bob, paula] = [
      await consoleSession(f, "alice"),
      await consoleSession(f, "bob"),
      await consoleSession(f, "paula"),
    ];
    const id = f.ids[0] as string; // 1,250.50 EUR
    const accept = (await consoleForm(f, id, "accept", alice.cookie)) as Record<string, string>;
    const asked = await postConsoleForm(f, alice.cookie, {
      ...accept,
      text: "duplicate booking, FIN-9",
    });
    expect([asked.status, asked.headers.get("location")]).toEqual([303, `/breaks/${id}`]);
    // Sent again (a double click): the same request, written once.
    expect(
      (await postConsoleForm(f, alice.cookie, { ...accept, text: "duplicate booking, FIN-9" }))
        .status,
    ).toBe(303);
    expect((await showBreak(f.database.db, id))?.break.status).toBe("open");
    expect(await trail(id)).toEqual([
      ["alice", "request_approval", "accept: duplicate booking, FIN-9"],
    ]);

    const alicePage = await consolePage(f, `/breaks/${id}`, alice.cookie);
    expect(alicePage).toContain('id="pending-approval"');
    expect(alicePage).not.toContain('id="approve-form"');
    expect(alicePage).not.toContain('id="accept-form"');
    expect(alicePage).toContain("Withdraw my request");
    // Her own approval, sent by hand, is refused; so is a preparer's.
    const own = await postConsoleForm(
      f,
      alice.cookie,
      {
        form_token: alice.formToken,
        decision: "approve",
        seen_action: "0",
      },
      `/breaks/${id}/approval`,
    );
    expect([own.status, await alertOf(own)]).toEqual([
      403,
      "alice asked for this accept: a second, different approver must approve it",
    ]);
    const prep = await postConsoleForm(
      f,
      paula.cookie,
      {
        form_token: paula.formToken,
        decision: "approve",
        seen_action: "0",
      },
      `/breaks/${id}/approval`,
    );
    expect(prep.status).toBe(403);
    // Another approver's accept meanwhile is refused: one request at a time.
    const bobAccept = await postConsoleForm(f, bob.cookie, {
      ...accept,
      form_token: bob.formToken,
      text: "mine",
    });
    expect(bobAccept.status).toBe(409);

    const approve = (await consoleForm(f, id, "approve", bob.cookie)) as Record<string, string>;
    expect(
      (await postConsoleForm(f, bob.cookie, { ...approve, text: "checked FIN-9" })).status,
    ).toBe(303);
    expect((await showBreak(f.database.db, id))?.break).toMatchObject({
      status: "accepted",
      acceptedBy: "alice",
      acceptedReason: "duplicate booking, FIN-9",
    });
    const rows = await trail(id);
    expect(rows.map(([actor, action]) => [actor, action])).toEqual([
      ["alice", "request_approval"],
      ["alice", "accept"],
      ["bob", "approve"],
    ]);
    expect(rows[2]?.[2]).toMatch(/^approved alice's accept \(request \d+\): checked FIN-9$/);
    const decided = await queryText(
      f.database.db,
      `SELECT requested_by, decision, decided_by FROM approval_requests WHERE break_id = '${id}'`,
    );
    expect(decided).toEqual([{ requested_by: "alice", decision: "approved", decided_by: "bob" }]);
  });

  it("holds a write-off above the amount: declined, nothing is booked; approved, the journal entry is the first approver's", async () => {
    const [alice, bob] = [await consoleSession(f, "alice"), await consoleSession(f, "bob")];
    const id = f.ids[1] as string; // 99.99 USD, above 50
    const form = (await consoleForm(f, id, "write_off", bob.cookie)) as Record<string, string>;
    const writeOff = { ...form, account: "6800", text: "scheme fee" };
    expect((await postConsoleForm(f, bob.cookie, writeOff)).status).toBe(303);
    const journal = () =>
      queryText(
        f.database.db,
        `SELECT account, amount::text AS amount, currency, actor FROM journal_entries WHERE break_id = '${id}'`,
      );
    expect(await journal()).toEqual([]);
    const decline = (await consoleForm(f, id, "decline", alice.cookie)) as Record<string, string>;
    expect(
      (await postConsoleForm(f, alice.cookie, { ...decline, text: "wrong account" })).status,
    ).toBe(303);
    expect(await journal()).toEqual([]);
    expect((await showBreak(f.database.db, id))?.break.status).toBe("open");

    const again = (await consoleForm(f, id, "write_off", bob.cookie)) as Record<string, string>;
    expect(
      (await postConsoleForm(f, bob.cookie, { ...again, account: "6810", text: "scheme fee" }))
        .status,
    ).toBe(303);
    const approve = (await consoleForm(f, id, "approve", alice.cookie)) as Record<string, string>;
    expect((await postConsoleForm(f, alice.cookie, approve)).status).toBe(303);
    expect(await journal()).toEqual([
      { account: "6810", amount: "99.99", currency: "USD", actor: "bob" },
    ]);
    expect((await trail(id)).slice(2).map(([actor, action]) => [actor, action])).toEqual([
      ["bob", "request_approval"],
      ["alice", "decline"],
      ["bob", "request_approval"],
      ["bob", "write_off"],
      ["alice", "approve"],
    ]);
  });

  it("applies an accept at or below the amount at once, and refuses an approval after a run changed the figures", async () => {
    const [alice, bob] = [await consoleSession(f, "alice"), await consoleSession(f, "bob")];
    const id = f.ids[2] as string; // 10 HKD, at most 50
    const accept = (await consoleForm(f, id, "accept", alice.cookie)) as Record<string, string>;
    expect((await postConsoleForm(f, alice.cookie, { ...accept, text: "rounding" })).status).toBe(
      303,
    );
    expect((await showBreak(f.database.db, id))?.break.status).toBe("accepted");
    expect((await trail(id)).map(([, action]) => action)).toEqual(["accept"]);

    const reopen = (await consoleForm(f, id, "reopen", alice.cookie)) as Record<string, string>;
    expect((await postConsoleForm(f, alice.cookie, reopen)).status).toBe(303);
    // What a run writes when the entry is rebooked at 80 HKD: now above the amount.
    await queryText(
      f.database.db,
      `UPDATE breaks SET amount = 80, ledger_amount = -80 WHERE break_id = '${id}'`,
    );
    const big = (await consoleForm(f, id, "accept", alice.cookie)) as Record<string, string>;
    expect((await postConsoleForm(f, alice.cookie, { ...big, text: "rebooked" })).status).toBe(303);
    expect((await showBreak(f.database.db, id))?.break.status).toBe("open");
    await queryText(
      f.database.db,
      `UPDATE breaks SET amount = 90, ledger_amount = -90 WHERE break_id = '${id}'`,
    );
    const approve = (await consoleForm(f, id, "approve", bob.cookie)) as Record<string, string>;
    const stale = await postConsoleForm(f, bob.cookie, approve);
    expect([stale.status, await alertOf(stale)]).toEqual([
      409,
      `break ${id} changed since it was shown (amount 80 is now 90; ledger amount -80 is now -90): nothing done, look at it again`,
    ]);
    expect((await showBreak(f.database.db, id))?.break.status).toBe("open");
  });
});
