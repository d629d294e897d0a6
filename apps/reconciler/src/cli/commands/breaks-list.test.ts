// `breaks list` one page at a time: it says how many breaks there are in all ("2 of 3 breaks")
// and how to reach the rest (--offset, --all); pages of one sort neither skip nor repeat a break;
// --json stays an array (what scripts read) with the total told on stderr. Before, it printed
// "200 breaks" with 3,231 queued, and --json gave 200 rows with no word of the others.
import { beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../db/connect";
import { queryText } from "../../db/query-rows";
import { EXIT } from "../../exit-codes";
import { runMatch } from "../../match/run-match";
import { TEST_AS_OF } from "../../testing/breaks";
import { useBreaksCli } from "../../testing/breaks-cli";
import { fakeIo } from "../../testing/cli";
import { testBackends } from "../../testing/databases";
import { main } from "../main";
import { pageLine } from "./breaks-list";

describe("the page line of breaks list", () => {
  it("tells the page, the whole and the next offset", () => {
    expect(pageLine(200, 3231, 0)).toBe("200 of 3,231 breaks (--offset 200 for the next)");
    expect(pageLine(200, 3231, 200)).toBe(
      "200 of 3,231 breaks (201–400; --offset 400 for the next)",
    );
    expect(pageLine(31, 3231, 3200)).toBe("31 of 3,231 breaks (3,201–3,231)");
    expect(pageLine(3, 3, 0)).toBe("3 of 3 breaks");
    expect(pageLine(1, 1, 0)).toBe("1 of 1 break");
    expect(pageLine(0, 3, 10)).toBe("0 of 3 breaks");
  });
});

describe.each(testBackends())("reconciler breaks list pages on %s", (kind) => {
  const { opened, cli } = useBreaksCli(kind, "breaks_list");

  const idsOf = (out: string[]) =>
    (JSON.parse(out.join("")) as { breakId: string }[]).map((r) => r.breakId);

  it("ends the table with how many there are in all and the offset of the next page", async () => {
    const first = await cli(["breaks", "list", "--limit", "2"]);
    expect(first.code).toBe(EXIT.ok);
    expect(first.out.at(-1)).toBe("2 of 3 breaks (--offset 2 for the next)");
    const rest = await cli(["breaks", "list", "--limit", "2", "--offset", "2"]);
    expect(rest.out.at(-1)).toBe("1 of 3 breaks (#3)");
    const all = await cli(["breaks", "list"]);
    expect(all.out.at(-1)).toBe("3 of 3 breaks");
  });

  it("pages the JSON without skipping or repeating a break, the total on stderr", async () => {
    for (const sort of ["priority", "amount", "age", "class", "last_action"]) {
      const pages: string[] = [];
      for (let offset = 0; offset < 3; offset++) {
        const page = await cli([
          "breaks",
          "list",
          "--json",
          "--sort",
          sort,
          "--limit",
          "1",
          "--offset",
          String(offset),
        ]);
        expect(page.code).toBe(EXIT.ok);
        pages.push(...idsOf(page.out));
        expect(page.err).toEqual([
          [
            "1 of 3 breaks (--offset 1 for the next)",
            "1 of 3 breaks (#2; --offset 2 for the next)",
            "1 of 3 breaks (#3)",
          ][offset],
        ]);
      }
      expect([...pages].sort(), sort).toEqual([...opened.ids].sort());
      const whole = await cli(["breaks", "list", "--json", "--sort", sort]);
      expect(idsOf(whole.out), sort).toEqual(pages);
    }
  });

  it("lists every break with --all, and refuses --all with --limit or --offset", async () => {
    const all = await cli(["breaks", "list", "--json", "--all"]);
    expect(idsOf(all.out)).toHaveLength(3);
    expect(all.err).toEqual(["3 of 3 breaks"]);
    const both = await cli(["breaks", "list", "--all", "--limit", "1"]);
    expect(both.code).toBe(EXIT.usage);
    expect(both.err.join("\n")).toMatch(/--all lists every break/);
    const bad = await cli(["breaks", "list", "--offset", "-1"]);
    expect(bad.code).toBe(EXIT.usage);
  });
});

// Amounts in different currencies are never put on one scale: --sort amount sorted 14,861.56 HKD
// above 1,983.58 USD. It sorts by currency, then the largest first within it; --currency picks
// currencies, and the filters take any case (--class AMOUNT_MISMATCH listed nothing before).
describe.each(testBackends())("reconciler breaks list filters and sorts on %s", (kind) => {
  const { opened, cli } = useBreaksCli(kind, "breaks_list_filters");
  beforeAll(async () => {
    const database = await openDatabase(
      kind === "pglite"
        ? { dataDir: opened.where[1] as string }
        : { url: opened.where[1] as string },
    );
    try {
      await queryText(
        database.db,
        `INSERT INTO ledger_entries (entry_id, kind, provider_ref, amount, currency, booked_at) VALUES
          ('L-4', 'card_transaction', 'T-4', -14861.56, 'HKD', '2026-05-04T10:00:00Z'),
          ('L-5', 'card_transaction', 'T-5', -1983.58, 'USD', '2026-05-05T10:00:00Z')`,
      );
      await runMatch(database.db, { asOf: TEST_AS_OF, onIncomplete: "all" });
    } finally {
      await database.close();
    }
  }, 120_000);
  const listed = async (words: string[]) => {
    const result = await cli(["breaks", "list", "--json", ...words]);
    expect(result.code, result.err.join("\n")).toBe(EXIT.ok);
    return (JSON.parse(result.out.join("")) as { amount: string; currency: string }[]).map(
      (r) => `${r.amount} ${r.currency}`,
    );
  };

  it("sorts by amount within each currency, and says so in its help", async () => {
    expect(await listed(["--sort", "amount"])).toEqual([
      "1250.50 EUR",
      "14861.56 HKD",
      "10 HKD",
      "1983.58 USD",
      "99.99 USD",
    ]);
    const help = fakeIo();
    expect(await main(["help", "breaks"], help.io)).toBe(EXIT.ok);
    expect(help.out.join("\n")).toMatch(/--sort .*amount: by currency, then the largest first/);
    expect(help.out.join("\n")).toMatch(/--currency USD\[,EUR\]/);
  });

  it("lists the currencies --currency names, in any case, and refuses a code that is none", async () => {
    expect(await listed(["--currency", "usd", "--sort", "amount"])).toEqual([
      "1983.58 USD",
      "99.99 USD",
    ]);
    expect((await listed(["--currency", "HKD, eur"])).sort()).toEqual([
      "10 HKD",
      "1250.50 EUR",
      "14861.56 HKD",
    ]);
    for (const bad of ["XYZ", "US", "USD;EUR", "usd,", "€"]) {
      const result = await cli(["breaks", "list", "--currency", bad]);
      expect(result.code, bad).toBe(EXIT.usage);
      expect(result.err.join("\n"), bad).toMatch(/^reconciler: --currency: .*ISO 4217/);
    }
  });

  it("takes --class, --status and --assignee in any case", async () => {
    const id = opened.ids[0] as string; // 1250.50 EUR
    expect((await cli(["breaks", "assign", id, "Carol", "--as", "bob"])).code).toBe(EXIT.ok);
    expect(await listed(["--assignee", "CAROL"])).toEqual(["1250.50 EUR"]);
    expect(await listed(["--assignee", "carol"])).toEqual(["1250.50 EUR"]);
    expect(await listed(["--assignee", "NONE"])).toHaveLength(4);
    expect(await listed(["--class", "MISSING_AT_PROVIDER"])).toHaveLength(5);
    expect(await listed(["--status", "OPEN,Pending"])).toHaveLength(5);
    expect(await listed(["--status", "ALL"])).toHaveLength(5);
    const bad = await cli(["breaks", "list", "--class", "AMOUNT_MISMATCHES"]);
    expect(bad.err.join("\n")).toMatch(/--class: must be one of .*amount_mismatch/);
  });
});

// A platform merchant's queue per entity: --entity names MERCHANT_NO (the merchant itself) or a
// sub-merchant of RECONCILER_ENTITIES, and any other is refused with the rule.
describe.each(testBackends())("reconciler breaks list --entity on %s", (kind) => {
  const env = { MERCHANT_NO: "M1", RECONCILER_ENTITIES: "M2,M3" };
  const { opened, cli } = useBreaksCli(kind, "breaks_list_entity", env);
  beforeAll(async () => {
    const database = await openDatabase(
      kind === "pglite"
        ? { dataDir: opened.where[1] as string }
        : { url: opened.where[1] as string },
    );
    try {
      await queryText(
        database.db,
        `UPDATE breaks SET entity = 'M2' WHERE break_id = '${opened.ids[0]}'`,
      );
    } finally {
      await database.close();
    }
  }, 120_000);
  const ids = async (...words: string[]) => {
    const result = await cli(["breaks", "list", "--json", ...words]);
    expect(result.code, result.err.join("\n")).toBe(EXIT.ok);
    return (JSON.parse(result.out.join("")) as { breakId: string; entity: string }[]).map(
      (r) => `${r.breakId} ${r.entity}`,
    );
  };

  it("lists one entity's breaks, each naming its entity", async () => {
    const [first, ...others] = opened.ids as [string, ...string[]];
    expect(await ids("--entity", "M2")).toEqual([`${first} M2`]);
    expect(await ids("--entity", "M3")).toEqual([]);
    expect((await ids("--entity", "M1")).sort()).toEqual(others.map((id) => `${id} `).sort());
    expect(await ids()).toHaveLength(opened.ids.length);
  });

  it("reports one entity: its breaks only, named in the title; another entity is refused", async () => {
    const others = opened.ids.slice(1);
    const report = await cli(["report", "--entity", "M2", "--limit", "50"]);
    expect(report.code, report.err.join("\n")).toBe(EXIT.ok);
    const text = report.out.join("\n");
    expect(text).toContain("Reconciliation report of entity M2 for every day");
    expect(text).toContain("Break queue (1 of 1");
    const whole = (await cli(["report", "--entity", "M1"])).out.join("\n");
    expect(whole).toContain(`Break queue (${others.length} of ${others.length}`);
    const bad = await cli(["report", "--entity", "M9"]);
    expect(bad.code).toBe(EXIT.usage);
    expect(bad.err.join("\n")).toMatch(/--entity: must be the merchant \(MERCHANT_NO M1\)/);
  });

  it("refuses an entity that is neither the merchant nor a sub-merchant, naming the rule", async () => {
    const result = await cli(["breaks", "list", "--entity", "M9"]);
    expect(result.code).toBe(EXIT.usage);
    expect(result.err.join("\n")).toMatch(
      /--entity: must be the merchant \(MERCHANT_NO M1\) or a sub-merchant of RECONCILER_ENTITIES \(M2, M3\)/,
    );
  });
});
