// The report finance reads: never a total across currencies, amounts grouped with their
// currency, accepted breaks apart from the queue, the statement's quiet days folded.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { seedThreeBreaks } from "../testing/breaks";
import { openTestDatabase, type TestDatabase } from "../testing/databases";
import { applyBreakAction } from "../workflow/break-actions";
import { renderHtml } from "./render-html";
import { renderText } from "./render-text";
import { loadReport } from "./report-data";

const CURRENCY = /\b(EUR|USD|HKD|SGD)\b/g;

describe("the report", () => {
  let database: TestDatabase;
  let db: Db;
  let ids: string[];
  beforeAll(async () => {
    database = await openTestDatabase("pglite");
    db = database.db;
    ids = await seedThreeBreaks(db);
    await applyBreakAction(db, {
      breakId: ids[2] as string,
      action: "accept",
      actor: "alice",
      text: "rounding <b>agreed</b>",
    });
  }, 120_000);
  afterAll(async () => {
    await database?.dispose();
  });

  it("never adds different currencies: one line per class and currency, with its currency", async () => {
    const text = renderText(await loadReport(db)).join("\n");
    const section = text
      .split(/Open differences by class, per currency[^\n]*\n/)[1]
      ?.split("\n\n")[0];
    const lines = section?.split("\n").slice(2) ?? [];
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      const codes = [...new Set(line.match(CURRENCY))];
      expect(codes, line).toHaveLength(1);
    }
    expect(section).toMatch(/EUR\s+1\s+1,250\.50 EUR/);
    expect(text).not.toMatch(/[A-Z]{3}\/[A-Z]{3}/);
    // No line of the text report carries two currencies.
    for (const line of text.split("\n"))
      expect([...new Set(line.match(CURRENCY))].length, line).toBeLessThan(2);
  });

  it("shows accepted breaks apart from the queue, and counts them out of the open breaks", async () => {
    const data = await loadReport(db);
    expect(data.openBreaks).toBe(2);
    expect(data.queue.map((q) => q.breakId)).not.toContain(ids[2]);
    expect(data.acceptedByClass).toEqual([
      { class: data.accepted[0]?.class, currency: "HKD", count: 1, amount: "10" },
    ]);
    const text = renderText(data).join("\n");
    expect(text).toMatch(
      /Accepted breaks by class[^\n]*\n[^\n]*\n[^\n]*\n\S+\s+HKD\s+1\s+10\.00 HKD/,
    );
  });

  it("renders the HTML with right-aligned grouped amounts, separate hold chart, quiet days folded, text escaped", async () => {
    const html = renderHtml(await loadReport(db));
    expect(html).toContain('<td class="n">1,250.50 EUR</td>');
    expect(html).toContain("Holds to watch");
    expect(html).toMatch(/<details open><summary>3 days with a difference<\/summary>/);
    expect(html).toMatch(/<details><summary>0 days without a difference<\/summary>/);
    expect(html).toContain("rounding &lt;b&gt;agreed&lt;/b&gt;");
    expect(html).not.toContain("<b>agreed");
    expect(html).not.toMatch(/[A-Z]{3}\/[A-Z]{3}/);
    expect(html).not.toMatch(/<script|src=|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
  });
});
