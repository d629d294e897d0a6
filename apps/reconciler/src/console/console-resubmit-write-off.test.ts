// A write-off form sent twice (a double click, a retry after a timeout) answers as the first did
// (303 to the break) and books its journal entries once, as a resubmitted accept or comment
// does; a write-off form sent from the page before someone else's change is still refused (409).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryText } from "../db/query-rows";
import {
  alertOf,
  type ConsoleFixture,
  consoleFixture,
  consoleForm,
  consoleSession,
  postConsoleForm,
} from "../testing/console";
import { testBackends } from "../testing/databases";
import { breakHistory } from "../workflow/break-queries";

let f: ConsoleFixture;

describe.each(testBackends())("a resubmitted write-off in the console on %s", (kind) => {
  beforeAll(async () => {
    f = await consoleFixture(kind);
  }, 120_000);
  afterAll(async () => {
    await f?.close();
  });

  it("answers the same form twice as the first, with one journal entry", async () => {
    const alice = await consoleSession(f, "alice");
    const id = f.ids[0] as string; // ledger -1,250.50 EUR
    const form = (await consoleForm(f, id, "write_off", alice.cookie)) as Record<string, string>;
    const writeOff = { ...form, account: "Suspense", text: "retry test" };
    for (const attempt of [1, 2]) {
      const res = await postConsoleForm(f, alice.cookie, writeOff);
      expect([attempt, res.status, res.headers.get("location")]).toEqual([
        attempt,
        303,
        `/breaks/${id}`,
      ]);
    }
    expect(
      await queryText(
        f.database.db,
        `SELECT amount::text AS amount, currency FROM journal_entries WHERE break_id = '${id}'`,
      ),
    ).toEqual([{ amount: "1250.50", currency: "EUR" }]);
    expect((await breakHistory(f.database.db, id)).map((h) => h.action)).toEqual(["write_off"]);

    // Another person's write-off from the same page is no resubmission: refused, nothing booked.
    const bob = await consoleSession(f, "bob");
    const late = await postConsoleForm(f, bob.cookie, { ...writeOff, form_token: bob.formToken });
    expect(late.status).toBe(409);
    expect(await alertOf(late)).toContain("changed since you looked (alice: write_off)");
    // So is the same person's write-off with another reason.
    const other = await postConsoleForm(f, alice.cookie, { ...writeOff, text: "another" });
    expect(other.status).toBe(409);
    expect(
      await queryText(f.database.db, `SELECT 1 FROM journal_entries WHERE break_id = '${id}'`),
    ).toHaveLength(1);
  });
});
