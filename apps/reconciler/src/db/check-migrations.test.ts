// The committed migrations must match the schema in code (CI fails on drift).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkMigrationDrift } from "./check-migrations";

describe("migration drift", () => {
  it("finds none between src/db/schema.ts and the committed drizzle folder", () => {
    const report = checkMigrationDrift();
    expect(report.drift, report.output).toEqual([]);
  }, 120_000);

  it("reports the migration generate would add to a folder that lacks it", () => {
    const folder = mkdtempSync(join(tmpdir(), "reconciler-empty-migrations-"));
    try {
      mkdirSync(join(folder, "meta"));
      writeFileSync(
        join(folder, "meta", "_journal.json"),
        JSON.stringify({ version: "7", dialect: "postgresql", entries: [] }),
      );
      const report = checkMigrationDrift(folder);
      expect(
        report.drift.some((file) => file.endsWith(".sql")),
        report.output,
      ).toBe(true);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);
});
