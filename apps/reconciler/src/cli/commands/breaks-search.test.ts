// Finding breaks (issue 36 "Findability"): `breaks list --search TEXT` finds a break by its id,
// its transaction or entry id, a card id (in any case, the text anywhere in the id), or its
// amount typed as the list prints it ("1,250.50 EUR", "1250.50"); under the table, the totals of
// the whole filter per currency. The seeded breaks are entries L-1 (-1,250.50 EUR on T-1), L-2
// (-99.99 USD on T-2) and L-3 (-10.00 HKD on T-3) that the provider does not have.
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../db/connect";
import { queryText } from "../../db/query-rows";
import { EXIT } from "../../exit-codes";
import { useBreaksCli } from "../../testing/breaks-cli";
import { testBackends } from "../../testing/databases";

describe.each(testBackends())("breaks list --search and the totals on %s", (kind) => {
  const { opened, cli } = useBreaksCli(kind, "breaks_search");
  const found = async (...words: string[]) => {
    const r = await cli(["breaks", "list", "--json", ...words]);
    expect(r.code, r.err.join("\n")).toBe(EXIT.ok);
    return (JSON.parse(r.out.join("")) as { entryId: string }[]).map((b) => b.entryId).sort();
  };

  it("finds a break by entry, transaction or card id in any case, and by its amount", async () => {
    const where = opened.where;
    const database = await openDatabase(
      where[0] === "--data-dir" ? { dataDir: where[1] as string } : { url: where[1] as string },
    );
    try {
      await queryText(
        database.db,
        "UPDATE ledger_entries SET card_id = 'Card-77' WHERE entry_id = 'L-2'",
      );
    } finally {
      await database.close();
    }
    expect(await found("--search", "l-2")).toEqual(["L-2"]);
    expect(await found("--search", "t-3")).toEqual(["L-3"]);
    expect(await found("--search", "CARD-77")).toEqual(["L-2"]);
    expect(await found("--search", "1,250.50 EUR")).toEqual(["L-1"]);
    expect(await found("--search", "1250.50")).toEqual(["L-1"]);
    expect(await found("--search", "-1250.5")).toEqual(["L-1"]);
    expect(await found("--search", "99.99 usd")).toEqual(["L-2"]);
    expect(await found("--search", "1,250.50 USD")).toEqual([]);
    // Wildcards are text: nothing holds a "%".
    expect(await found("--search", "L%")).toEqual([]);
    expect(await found("--search", "l-", "--currency", "hkd")).toEqual(["L-3"]);
    const empty = await cli(["breaks", "list", "--search", " "]);
    expect(empty.code).toBe(EXIT.usage);
    expect(empty.err.join("\n")).toMatch(/--search: needs the text to look for/);
  });

  it("prints the filter's totals per currency under the table, every page counted", async () => {
    const all = await cli(["breaks", "list", "--limit", "1"]);
    expect(all.code).toBe(EXIT.ok);
    const at = all.out.indexOf("Totals of this filter per currency (every page):");
    expect(at).toBeGreaterThan(0);
    const totals = all.out.slice(at + 3, -1).map((l) => l.trim().split(/\s{2,}/));
    expect(totals).toEqual([
      ["EUR", "1", "1,250.50 EUR", "1,250.50 EUR"],
      ["HKD", "1", "10.00 HKD", "10.00 HKD"],
      ["USD", "1", "99.99 USD", "99.99 USD"],
    ]);
    expect(all.out.at(-1)).toBe("1 of 3 breaks (--offset 1 for the next)");
    const usd = await cli(["breaks", "list", "--currency", "usd"]);
    const line = usd.out.slice(
      usd.out.indexOf("Totals of this filter per currency (every page):") + 3,
      -1,
    );
    expect(line.map((l) => l.trim().split(/\s{2,}/))).toEqual([
      ["USD", "1", "99.99 USD", "99.99 USD"],
    ]);
  });
});
