import { openDatabase } from "../src/db/connect";
import { queryCount, queryText } from "../src/db/query-rows";
import { matchPasses } from "../src/match/match-passes";
import { resolveMatchOptions } from "../src/match/match-options";
import { plannerSettings } from "../src/match/planner-settings";

const PLANNABLE = /^\s*(WITH|SELECT|INSERT|UPDATE|DELETE|CREATE TEMP TABLE \w+ ON COMMIT DROP AS)\b/i;
const database = await openDatabase({ url: process.env.DATABASE_URL as string });
const o = resolveMatchOptions({ asOf: new Date("2026-06-01T00:00:00Z") });
let total = 0;
const rows: [string, number, number][] = [];
await database.db.transaction(async (tx) => {
  for (const s of [...plannerSettings, ...matchPasses(o)]) {
    let plan = 0;
    if (PLANNABLE.test(s.text)) {
      const [r] = await queryText<{ "QUERY PLAN": unknown }>(tx, `EXPLAIN (SUMMARY, FORMAT JSON) ${s.text}`);
      const p = r?.["QUERY PLAN"];
      const j = (typeof p === "string" ? JSON.parse(p) : p) as { "Planning Time": number }[];
      plan = j[0]?.["Planning Time"] ?? 0;
    }
    const t0 = performance.now();
    await queryCount(tx, s.text);
    rows.push([s.name, plan, performance.now() - t0]);
    total += plan;
  }
  throw new Error("rollback");
}).catch((e) => console.log("stopped:", String(e).slice(0, 300)));
for (const r of rows.filter((r) => r[1] > 1)) console.log(r[0], r[1].toFixed(1), r[2].toFixed(0));
console.log("planning total ms", total.toFixed(1), "statements", rows.length);
await database.close();
