// `reconciler demo` end to end on a small data set: sandbox, generated ledger, the real sync
// over HTTP into PGlite in a temporary folder, matching, and both reports.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { demoCommand } from "./demo-command";

describe("reconciler demo", () => {
  it("finds every injected discrepancy and writes a self-contained HTML report", async () => {
    const folder = { path: mkdtempSync(join(tmpdir(), "reconciler-demo-test-")) };
    // A --data-dir that does not exist yet (it was refused with ENOENT writing ledger.csv).
    const dataDir = join(folder.path, "new", "demo");
    const out: string[] = [];
    const err: string[] = [];
    try {
      const code = await demoCommand.run(
        {
          positional: [],
          flags: {
            seed: "11",
            cards: "40",
            transactions: "800",
            days: "30",
            "data-dir": dataDir,
          },
        },
        {
          out: (line) => out.push(line),
          err: (line) => err.push(line),
          isTty: false,
          env: {},
          signal: new AbortController().signal,
        },
      );
      const text = out.join("\n");
      expect(err).toEqual([]);
      expect(code).toBe(0);
      expect(text).toMatch(/Injected discrepancies found: (\d+) of \1/);
      expect(text).not.toMatch(/NOT FOUND|nothing injected explains/);
      for (const cls of [
        "missing_in_ledger",
        "missing_at_provider",
        "amount_mismatch",
        "currency_mismatch",
        "duplicate_in_ledger",
        "status_mismatch",
        "fee_mismatch",
        "orphan_refund_or_reversal",
      ])
        expect(text).toMatch(new RegExp(`✓ ${cls}`));
      expect(text).toMatch(/Verdict: BREAKS/);
      const html = readFileSync(`${dataDir}/report.html`, "utf8");
      expect(html).toMatch(/^<!doctype html>/);
      expect(html).toContain("<svg");
      expect(html).toContain("open breaks by class and day");
      expect(html).not.toMatch(
        /<script|<link|src=|url\(|@import|https?:\/\/(?!www\.w3\.org\/2000\/svg)/,
      );
    } finally {
      rmSync(folder.path, { recursive: true, force: true });
    }
  }, 180_000);

  it("refuses a bad flag before doing anything", async () => {
    const err: string[] = [];
    const code = await demoCommand.run(
      { positional: [], flags: { cards: "many" } },
      {
        out: () => {},
        err: (l) => err.push(l),
        isTty: false,
        env: {},
        signal: new AbortController().signal,
      },
    );
    expect(code).toBe(2);
    expect(err.join("\n")).toMatch(/--cards: must be a whole number/);
  });
});
