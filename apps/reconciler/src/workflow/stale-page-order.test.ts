// A form from a stale page is refused naming what changed since, in the order it happened: the
// audit rows are read by their numeric id, so row 10 does not come before row 9 (ids compared as
// text put "10" and "11" before "8" and "9").
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedThreeBreaks } from "../testing/breaks";
import { openTestDatabase, type TestDatabase } from "../testing/databases";
import { applyBreakAction } from "./break-actions";

describe("a stale page's refusal", () => {
  let database: TestDatabase;
  let id: string;
  beforeAll(async () => {
    database = await openTestDatabase("pglite");
    [id] = (await seedThreeBreaks(database.db)) as [string];
  }, 60_000);
  afterAll(() => database?.dispose());

  it("lists the changes since the page in the order they were made", async () => {
    const db = database.db;
    let seen = "";
    // Comments up to audit row 7: the page is shown then.
    for (let i = 1; i <= 7; i++) {
      const r = await applyBreakAction(db, {
        breakId: id,
        action: "comment",
        actor: "c",
        text: `${i}`,
      });
      seen = r.actionId;
    }
    expect(seen).toBe("7");
    // Rows 8 to 11, by four people in turn, from another tab.
    for (const [n, action] of [
      ["p8", "accept"],
      ["p9", "reopen"],
      ["p10", "accept"],
      ["p11", "reopen"],
    ] as const)
      await applyBreakAction(db, {
        breakId: id,
        action,
        actor: n,
        text: action === "accept" ? "ok" : undefined,
      });
    const refused = applyBreakAction(db, {
      breakId: id,
      action: "accept",
      actor: "ana",
      text: "from the stale page",
      seen: { lastActionId: seen },
    });
    await expect(refused).rejects.toThrow(
      /p8 accepted it .*; p9 reopened it .*; p10 accepted it .*; p11 reopened it/,
    );
  });
});
