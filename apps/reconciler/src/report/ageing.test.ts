// One labelled definition of each age: "record age" (as_of - the record's occurred_at) and
// "open for" (as_of - when the break opened), the same in the views, breaks list/show and the
// report; --sort age sorts by the record age list shows; the report's stale-authorization
// buckets start at the run's stale limit, so they hold exactly the stale_authorization breaks.
import type { RunningSandbox } from "@merchantkit/sandbox";
import { describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { listBreaks } from "../testing/breaks";
import { testBackends } from "../testing/databases";
import { matchEveryClass } from "../testing/every-class";
import { useSandboxAndDatabase } from "../testing/sandbox-database";
import { renderText } from "./render-text";
import { loadReport } from "./report-data";

describe.each(testBackends())("ages on %s", (kind) => {
  let db: Db;
  let sandbox: RunningSandbox;
  useSandboxAndDatabase(kind, (opened) => {
    ({ db, sandbox } = opened);
  });

  it("labels record age and open for, sorts by the shown record age, buckets holds from the stale limit", async () => {
    await matchEveryClass(db, sandbox);
    const rows = await listBreaks(db, { sort: "age", limit: 1000 });
    const queue = await queryText<{ break_id: string; age_days: number; days_open: number }>(
      db,
      "SELECT break_id, age_days, days_open FROM finance_open_breaks",
    );
    expect(queue.length).toBeGreaterThan(0);
    for (const q of queue) {
      const row = rows.find((r) => r.breakId === q.break_id);
      expect(row?.recordAgeDays, q.break_id).toBe(Number(q.age_days));
      expect(row?.daysOpen, q.break_id).toBe(Number(q.days_open));
    }
    // Some break's record is older than the break (so the two ages are told apart).
    expect(rows.some((r) => r.recordAgeDays !== r.daysOpen)).toBe(true);
    const ages = rows.map((r) => r.recordAgeDays ?? -1);
    expect(ages).toEqual([...ages].sort((a, b) => b - a));

    const [stale] = await queryText<{ n: string }>(
      db,
      "SELECT count(*) AS n FROM breaks WHERE class = 'stale_authorization' AND status <> 'resolved'",
    );
    const report = await loadReport(db);
    const inBuckets = report.staleAuthorizations.reduce((n, b) => n + b.count, 0);
    expect(Number(stale?.n)).toBeGreaterThan(0);
    expect(inBuckets).toBe(Number(stale?.n));
    for (const b of report.staleAuthorizations) expect(["7-30d", ">30d"]).toContain(b.bucket);
    const text = renderText(report).join("\n");
    expect(text).toMatch(/record age/);
  }, 180_000);
});
