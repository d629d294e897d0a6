// `reconciler export` end to end through main(), on a PGlite folder and (with DATABASE_URL) a
// Postgres server: the journal after a write-off, the breaks and the audit trail filtered as
// breaks list filters, in CSV and in XLSX (read back: amounts exact, to the cent).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, describe, expect, it } from "vitest";
import { EXIT } from "../../exit-codes";
import { BREAK_PRIORITY } from "../../match/break-classes";
import { useBreaksCli } from "../../testing/breaks-cli";
import { temporaryFolder, testBackends } from "../../testing/databases";

const PRIORITY = `P${BREAK_PRIORITY.missing_at_provider}`;

describe.each(testBackends())("reconciler export on %s", (kind) => {
  const { opened, cli } = useBreaksCli(kind, "export_cli", { RECONCILER_ACTOR: "alice" });
  const folder = temporaryFolder("export-");
  afterAll(() => folder.remove());
  const lines = (file: string) => readFileSync(file, "utf8").split("\r\n");

  it("writes the journal of a write-off, and the audit trail, as CSV", async () => {
    const id = opened.ids[0] as string;
    expect(
      (
        await cli([
          "breaks",
          "write-off",
          id,
          "--account",
          "6800",
          "--reason",
          "=cmd|x",
          "--date",
          "2026-05-31",
        ])
      ).code,
    ).toBe(EXIT.ok);
    const file = join(folder.path, `journal-${kind}.csv`);
    const { code, out } = await cli(["export", "journal", "--out", file]);
    expect(code).toBe(EXIT.ok);
    expect(JSON.parse(out[0] as string)).toMatchObject({ msg: "export journal", rows: 1 });
    const [header, row, end] = lines(file);
    expect(header).toBe(
      "id,entry_date,account,amount,currency,break_id,reference,actor,reason,audit_row,created_at",
    );
    expect(row).toMatch(
      new RegExp(
        `^\\d+,2026-05-31,6800,1250.50,EUR,${id},ledger:ledger_entry:L-1,alice,'=cmd\\|x,\\d+,`,
      ),
    );
    expect(end).toBe("");
    const audit = join(folder.path, `audit-${kind}.csv`);
    expect((await cli(["export", "audit", "--out", audit, "--currency", "eur"])).code).toBe(
      EXIT.ok,
    );
    expect(lines(audit).slice(1, -1)).toEqual([
      expect.stringMatching(
        new RegExp(
          `,${id},.*,alice,write_off,'=cmd\\|x \\(account 6800\\),missing_at_provider,1250.50,EUR$`,
        ),
      ),
    ]);
  });

  it("writes the filtered breaks; the journal of breaks the filter leaves out is empty", async () => {
    const file = join(folder.path, `breaks-${kind}.csv`);
    expect(
      (await cli(["export", "breaks", "--out", file, "--currency", "USD,HKD", "--sort", "amount"]))
        .code,
    ).toBe(EXIT.ok);
    const rows = lines(file)
      .slice(1, -1)
      .map((l) => l.split(",").slice(0, 6));
    // By currency, then the largest first (breaks list --sort amount); the EUR break left out.
    expect(rows).toEqual([
      [opened.ids[2], "missing_at_provider", "open", PRIORITY, "HKD", "10"],
      [opened.ids[1], "missing_at_provider", "open", PRIORITY, "USD", "99.99"],
    ]);
    const journal = join(folder.path, `journal-usd-${kind}.csv`);
    expect((await cli(["export", "journal", "--out", journal, "--currency", "USD"])).code).toBe(
      EXIT.ok,
    );
    expect(lines(journal).slice(1)).toEqual([""]);
  });

  it("writes XLSX with amounts as numbers shown to the cent", async () => {
    const file = join(folder.path, `journal-${kind}.xlsx`);
    expect((await cli(["export", "journal", "--out", file, "--format", "xlsx"])).code).toBe(
      EXIT.ok,
    );
    const zip = unzipSync(readFileSync(file));
    const sheet = strFromU8(zip["xl/worksheets/sheet1.xml"] as Uint8Array);
    const styles = strFromU8(zip["xl/styles.xml"] as Uint8Array);
    expect(sheet).toContain("<v>1250.5</v>");
    expect(styles).toContain('formatCode="#,##0.00"');
    const strings = strFromU8(zip["xl/sharedStrings.xml"] as Uint8Array);
    expect(strings).toContain("=cmd|x");
  });

  it("refuses what it cannot do, naming the flag, and writes no file", async () => {
    const file = join(folder.path, "never.csv");
    const cases: [string[], RegExp][] = [
      [["export", "ledger", "--out", file], /export needs what to write: journal, breaks, audit/],
      [["export", "breaks"], /--out/],
      [["export", "breaks", "--out", file, "--format", "pdf"], /--format: must be csv or xlsx/],
      [["export", "breaks", "--out", file, "--class", "nope"], /--class: must be one of/],
      [["export", "breaks", "--out", file, "--currency", "EURO"], /--currency/],
    ];
    for (const [words, message] of cases) {
      const { code, err } = await cli(words);
      expect(code, words.join(" ")).toBe(EXIT.usage);
      expect(err.join("\n")).toMatch(message);
    }
    expect(() => readFileSync(file)).toThrow();
  });
});
