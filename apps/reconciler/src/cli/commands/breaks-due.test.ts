// Due dates (config/due-settings.ts, workflow/due-dates.ts) through main(): every open break is
// due its record's time + its class's days (halved from the large amount); `breaks list` and
// `show` print it, `--overdue` keeps the overdue ones, `--sort due` puts the earliest first, the
// report counts the overdue breaks and their money per currency, and a setting that breaks its
// rule is refused naming the variable, the flag and the rule. The seeded breaks are
// missing_at_provider (P1) entries of 2026-05-01 (1,250.50 EUR), 05-02 (99.99 USD) and 05-03
// (10.00 HKD), the run's as_of 2026-06-01.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../db/connect";
import { queryText } from "../../db/query-rows";
import { EXIT } from "../../exit-codes";
import { useBreaksCli } from "../../testing/breaks-cli";
import { temporaryFolder, testBackends } from "../../testing/databases";
import { documentedQueries } from "../../testing/documented-queries";

const OPEN_BREAKS = `SELECT break_id,
    to_char(due_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS due_at, overdue
  FROM finance_open_breaks ORDER BY break_id`;

interface Row {
  breakId: string;
  entryId: string;
  dueAt: string | null;
  overdue: boolean;
}

describe.each(testBackends())("due dates of breaks on %s", (kind) => {
  const { opened, cli } = useBreaksCli(kind, "breaks_due");
  const rows = async (words: string[], env: Record<string, string> = {}) => {
    const r = await cli(["breaks", "list", "--json", ...words], env);
    expect(r.code, r.err.join("\n")).toBe(EXIT.ok);
    return (JSON.parse(r.out.join("")) as Row[]).map((b) => [b.entryId, b.dueAt, b.overdue]);
  };
  const tuned = {
    RECONCILER_DUE_DAYS: "missing_at_provider=30",
    RECONCILER_DUE_LARGE_AMOUNT: "1000",
  };

  it("gives each open break its due date: P1 two days by default, all three overdue", async () => {
    expect(await rows(["--sort", "due"])).toEqual([
      ["L-1", "2026-05-03T10:00:00Z", true],
      ["L-2", "2026-05-04T10:00:00Z", true],
      ["L-3", "2026-05-05T10:00:00Z", true],
    ]);
  });

  it("follows the settings: a class's days, halved for a large amount; --overdue and --sort due", async () => {
    expect(await rows(["--sort", "due"], tuned)).toEqual([
      ["L-1", "2026-05-16T10:00:00Z", true],
      ["L-2", "2026-06-01T10:00:00Z", false],
      ["L-3", "2026-06-02T10:00:00Z", false],
    ]);
    expect(await rows(["--overdue"], tuned)).toEqual([["L-1", "2026-05-16T10:00:00Z", true]]);
    expect(await rows(["--overdue"], { RECONCILER_DUE_DAYS: "p1=40" })).toEqual([]);
    const table = await cli(["breaks", "list", "--sort", "due"], tuned);
    expect(table.out[0]).toMatch(/\bdue\b/);
    expect(table.out.find((l) => l.includes("L-1") || l.includes("1,250.50"))).toMatch(
      /2026-05-16 overdue/,
    );
    const show = await cli(["breaks", "show", opened.ids[1] as string], tuned);
    expect(show.out.join("\n")).toMatch(/ due 2026-06-01\n/);
  });

  it("counts the overdue breaks and their money per currency in the report", async () => {
    const report = await cli(["report"], tuned);
    expect(report.code, report.err.join("\n")).toBe(EXIT.ok);
    const text = report.out.join("\n");
    const at = text.indexOf("Overdue open breaks per currency");
    expect(at).toBeGreaterThan(0);
    const section = text.slice(at).split("\n\n")[0] as string;
    expect(section).toMatch(/EUR\s+1\s+1,250\.50 EUR\s+1,250\.50 EUR/);
    expect(section).not.toMatch(/USD|HKD/);
    const none = await cli(["report"], { RECONCILER_DUE_DAYS: "p1=60" });
    expect(none.out.join("\n")).toMatch(/Overdue open breaks per currency[^\n]*\n {2}none/);
  });

  it("refuses settings that break their rule, naming the variable, the flag and the rule", async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [
        { RECONCILER_DUE_DAYS: "p5=3" },
        /RECONCILER_DUE_DAYS \(--due-days\): p5 is neither a priority \(p1–p4\) nor a break class/,
      ],
      [{ RECONCILER_DUE_DAYS: "missing_in_ledgr=3" }, /missing_in_ledgr is neither a priority/],
      [
        { RECONCILER_DUE_DAYS: "p1=0" },
        /RECONCILER_DUE_DAYS \(--due-days\): p1: days must be from 1 to 366/,
      ],
      [{ RECONCILER_DUE_DAYS: "p1" }, /must be NAME=DAYS pairs/],
      [
        { RECONCILER_DUE_LARGE_AMOUNT: "-5" },
        /RECONCILER_DUE_LARGE_AMOUNT \(--due-large-amount\): must be a positive amount/,
      ],
      [{ RECONCILER_DUE_LARGE_AMOUNT: "0" }, /must be a positive amount/],
    ];
    for (const [env, message] of cases) {
      const r = await cli(["breaks", "list"], env);
      expect(r.code, JSON.stringify(env)).toBe(EXIT.usage);
      expect(r.err.join("\n")).toMatch(message);
    }
    const flag = await cli(["breaks", "list", "--json", "--due-days", "P1=45"]);
    expect(flag.code).toBe(EXIT.ok);
    expect((JSON.parse(flag.out.join("")) as Row[])[0]?.dueAt).toBe("2026-06-15T10:00:00Z");
  });
  it("gives finance_open_breaks and the breaks export the due dates and overdue of breaks list, under the same settings", async () => {
    const sqlRows = async (text = OPEN_BREAKS) => {
      const where = opened.where;
      const database = await openDatabase(
        where[0] === "--data-dir" ? { dataDir: where[1] as string } : { url: where[1] as string },
      );
      try {
        return await queryText<{ break_id: string; due_at: string | null; overdue: boolean }>(
          database.db,
          text,
        );
      } finally {
        await database.close();
      }
    };
    const folder = temporaryFolder("breaks-due-export-");
    try {
      const settings: Record<string, string>[] = [{}, tuned, { RECONCILER_DUE_DAYS: "p1=40" }];
      for (const env of settings) {
        const listed = await cli(["breaks", "list", "--json", "--all"], env);
        expect(listed.code, listed.err.join("\n")).toBe(EXIT.ok);
        const list = (JSON.parse(listed.out.join("")) as Row[])
          .map((b) => ({ break_id: b.breakId, due_at: b.dueAt, overdue: b.overdue }))
          .sort((a, b) => a.break_id.localeCompare(b.break_id));
        const view = (await sqlRows()).map((r) => ({
          ...r,
          overdue: String(r.overdue) === "true",
        }));
        expect(view, JSON.stringify(env)).toEqual(list);
        // Question 17 of docs/finance-queries.md is `breaks list --overdue --sort due`, in order.
        const overdue = await cli(["breaks", "list", "--json", "--overdue", "--sort", "due"], env);
        const q17 = await sqlRows(documentedQueries().get(17));
        expect(
          q17.map((r) => r.break_id),
          JSON.stringify(env),
        ).toEqual((JSON.parse(overdue.out.join("")) as Row[]).map((b) => b.breakId));
        expect(q17.map((r) => r.break_id).sort()).toEqual(
          view.filter((r) => r.overdue).map((r) => r.break_id),
        );
        // The breaks export carries the same two columns.
        const file = join(folder.path, "breaks.csv");
        expect((await cli(["export", "breaks", "--out", file], env)).code).toBe(EXIT.ok);
        const [header, ...lines] = readFileSync(file, "utf8").trim().split("\r\n");
        const columns = (header as string).split(",");
        const cell = (line: string, name: string) => line.split(",")[columns.indexOf(name)];
        expect(
          lines
            .map((l) => ({
              break_id: cell(l, "break_id"),
              due_at: cell(l, "due_at"),
              overdue: cell(l, "overdue") === "true",
            }))
            .sort((a, b) => (a.break_id as string).localeCompare(b.break_id as string)),
        ).toEqual(list);
      }
    } finally {
      folder.remove();
    }
  });
});
