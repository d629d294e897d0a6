// The report a cycle writes: replaced atomically through a temporary file of its own, so two
// workers sharing a report folder (both PID 1 in their containers) never collide, and a write
// that fails leaves nothing behind.
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase, temporaryFolder } from "../testing/databases";
import { writeReport } from "./write-report";

describe("writeReport", () => {
  let database: TestDatabase;
  const dir = temporaryFolder("report-");
  beforeAll(async () => {
    database = await openTestDatabase("pglite");
  }, 60_000);
  afterAll(async () => {
    await database.dispose();
    dir.remove();
  });

  it("lets two writers (same pid) replace the report at once", async () => {
    const shared = join(dir.path, "shared");
    const results = await Promise.allSettled([
      writeReport(database.db, shared),
      writeReport(database.db, shared),
    ]);
    expect(results.map((r) => (r.status === "rejected" ? String(r.reason) : "ok"))).toEqual([
      "ok",
      "ok",
    ]);
    expect(readdirSync(shared).sort()).toEqual(["report.html", "statement.csv"]);
    expect(readFileSync(join(shared, "statement.csv"), "utf8")).toMatch(/^day,currency,/);
  });

  it("leaves no temporary file behind when the replace fails", async () => {
    const blocked = join(dir.path, "blocked");
    // A folder where report.html should go: the rename over it fails.
    mkdirSync(join(blocked, "report.html"), { recursive: true });
    await expect(writeReport(database.db, blocked)).rejects.toThrow();
    expect(readdirSync(blocked)).toEqual(["report.html"]);
  });
});
