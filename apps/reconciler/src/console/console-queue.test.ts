// The console's queue in pages: it says how many breaks match in all ("500 of 523 breaks") and
// links the next and previous pages with the filters and sort kept; pages of one sort (amounts
// tied by the dozen) neither skip nor repeat a break. Before, it showed "500 breaks" with 3,231
// queued and no way to the rest.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryText } from "../db/query-rows";
import { runMatch } from "../match/run-match";
import { TEST_AS_OF } from "../testing/breaks";
import { addConsoleUsers, postSignIn } from "../testing/console";
import { openTestDatabase, type TestDatabase } from "../testing/databases";
import { type RunningConsole, startConsole } from "./console-server";

const BREAKS = 523;

describe("the console's queue in pages", () => {
  let database: TestDatabase;
  let running: RunningConsole;
  let cookie: string;
  beforeAll(async () => {
    database = await openTestDatabase("pglite");
    // Ledger entries no provider record books: one open break each, 7 amounts only.
    await queryText(
      database.db,
      `INSERT INTO ledger_entries (entry_id, kind, provider_ref, amount, currency, booked_at)
       SELECT 'L-' || i, 'card_transaction', 'T-' || i, -(1 + i % 7), 'EUR',
         timestamptz '2026-05-01T10:00:00Z' + (i % 3) * interval '1 day'
       FROM generate_series(1, ${BREAKS}) i`,
    );
    await runMatch(database.db, { asOf: TEST_AS_OF, onIncomplete: "all" });
    const { vic } = await addConsoleUsers(database.db);
    running = await startConsole({
      db: database.db,
      port: 0,
      entityConfig: { merchantNo: "M1000001", entities: ["M2000001"] },
    });
    const res = await postSignIn(running.url, "vic", vic);
    cookie = (res.headers.get("set-cookie") ?? "").split(";")[0] as string;
  }, 120_000);
  afterAll(async () => {
    await running?.close();
    await database?.dispose();
  });

  const page = async (href: string) => {
    const res = await fetch(`${running.url}${href}`, { headers: { cookie } });
    const html = await res.text();
    const unescaped = (s: string) => s.replaceAll("&amp;", "&");
    return {
      status: res.status,
      count: /id="count">([^<]*)/.exec(html)?.[1],
      ids: [...html.matchAll(/<a href="\/breaks\/([0-9a-f]+)">/g)].map((m) => m[1] as string),
      next: unescaped(/<a rel="next" href="([^"]+)"/.exec(html)?.[1] ?? ""),
      prev: unescaped(/<a rel="prev" href="([^"]+)"/.exec(html)?.[1] ?? ""),
    };
  };

  it("tells how many breaks there are in all and reaches every one, page by page", async () => {
    for (const query of ["", "?sort=amount", "?sort=age&dir=desc", "?status=open&sort=class"]) {
      const first = await page(`/breaks${query}`);
      expect(first.status).toBe(200);
      expect(first.count, query).toBe("500 of 523 breaks (1–500, page 1 of 2)");
      expect(first.prev).toBe("");
      // The next page keeps the filters and the sort.
      const kept = new URLSearchParams(query);
      kept.set("page", "2");
      expect(Object.fromEntries(new URL(first.next, "http://x").searchParams)).toEqual(
        Object.fromEntries(kept),
      );
      const second = await page(first.next);
      expect(second.count).toBe("23 of 523 breaks (501–523, page 2 of 2)");
      expect(second.next).toBe("");
      expect((await page(second.prev)).ids).toEqual(first.ids);
      const ids = [...first.ids, ...second.ids];
      expect(new Set(ids).size, query).toBe(BREAKS);
    }
  });

  it("filters by currency (and status and class) in any case, keeps it on the next page, and refuses a code that is none", async () => {
    const eur = await page("/breaks?currency=eur");
    expect(eur.count).toBe("500 of 523 breaks (1–500, page 1 of 2)");
    expect(new URL(eur.next, "http://x").searchParams.get("currency")).toBe("EUR");
    expect((await page("/breaks?currency=USD,HKD")).count).toBe("0 of 0 breaks");
    expect((await page("/breaks?currency=XYZ")).status).toBe(400);
    expect((await page("/breaks?status=OPEN&class=Missing_At_Provider")).count).toBe(
      "500 of 523 breaks (1–500, page 1 of 2)",
    );
  });

  it("searches, filters by entity and overdue, and totals the whole filter per currency", async () => {
    const totals = async (href: string) => {
      const res = await fetch(`${running.url}${href}`, { headers: { cookie } });
      const table = /<table id="totals">([\s\S]*?)<\/table>/.exec(await res.text())?.[1] ?? "";
      return [...table.matchAll(/<tr>([\s\S]*?)<\/tr>/g)]
        .slice(1)
        .map((r) => [...(r[1] as string).matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((c) => c[1]));
    };
    // Every page of the filter, not the 500 shown: 523 entries of 1 to 7 EUR.
    expect(await totals("/breaks")).toEqual([["EUR", "523", "2,092.00 EUR", "2,092.00 EUR"]]);
    const found = await page("/breaks?search=l-52");
    expect(found.count).toBe("5 of 5 breaks"); // L-52, L-520 … L-523
    expect(await totals("/breaks?search=l-52")).toEqual([["EUR", "5", "22.00 EUR", "22.00 EUR"]]);
    // An amount as the list prints it, read by the CLI's own parser (queueSearch): 3 EUR is
    // every seventh entry (i % 7 = 2), 75 of them; in another currency none.
    for (const typed of ["3.00 EUR", "3.00", "3 eur"])
      expect((await page(`/breaks?search=${encodeURIComponent(typed)}`)).count, typed).toBe(
        "75 of 75 breaks",
      );
    expect(await totals("/breaks?search=3.00%20EUR")).toEqual([
      ["EUR", "75", "225.00 EUR", "225.00 EUR"],
    ]);
    expect((await page("/breaks?search=3.00%20USD")).count).toBe("0 of 0 breaks");
    expect((await page("/breaks?entity=(merchant)")).count).toBe(
      "500 of 523 breaks (1–500, page 1 of 2)",
    );
    const other = await page("/breaks?entity=m2000001");
    expect(other.count).toBe("0 of 0 breaks");
    // Due two days after their record (P1), read at the run's as-of a month later: all overdue.
    const overdue = await page("/breaks?overdue=1&entity=(merchant)");
    expect(overdue.count).toBe("500 of 523 breaks (1–500, page 1 of 2)");
    const next = new URL(overdue.next, "http://x").searchParams;
    expect([next.get("overdue"), next.get("entity")]).toEqual(["1", "(merchant)"]);
  });

  it("links each break page to the next break of the queue, the last one back to the first", async () => {
    const queue = [...(await page("/breaks")).ids, ...(await page("/breaks?page=2")).ids];
    expect(queue).toHaveLength(BREAKS);
    const nextOf = async (id: string) => {
      const res = await fetch(`${running.url}/breaks/${id}`, { headers: { cookie } });
      return /href="\/breaks\/([0-9a-f]+)" id="next-break"/.exec(await res.text())?.[1];
    };
    expect(await nextOf(queue[0] as string)).toBe(queue[1]);
    expect(await nextOf(queue[499] as string)).toBe(queue[500]);
    expect(await nextOf(queue[BREAKS - 1] as string)).toBe(queue[0]);
  });

  it("shows one day's report at ?date=, and refuses a day that is none", async () => {
    const day = async (date: string) => {
      const res = await fetch(`${running.url}/?date=${date}`, { headers: { cookie } });
      return { status: res.status, html: await res.text() };
    };
    const one = await day("2026-05-02");
    expect(one.status).toBe(200);
    expect(one.html).toContain("Reconciliation report of 2026-05-02");
    // Its statement holds that day only.
    expect(one.html).toContain("2026-05-02");
    expect(one.html).not.toContain(">2026-05-01<");
    for (const bad of ["2026-02-30", "x", "2026-5-2"])
      expect((await day(bad)).status, bad).toBe(400);
  });

  it("refuses a page that is not a whole number from 1, and shows an empty page past the end", async () => {
    expect((await page("/breaks?page=0")).status).toBe(400);
    expect((await page("/breaks?page=x")).status).toBe(400);
    const past = await page("/breaks?page=9");
    expect([past.status, past.count, past.ids]).toEqual([200, "0 of 523 breaks (page 9 of 2)", []]);
    expect(past.prev).toBe("/breaks?page=2");
  });
});
