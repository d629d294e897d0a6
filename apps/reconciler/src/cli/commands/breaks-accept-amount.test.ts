// `breaks accept ID --amount "AMOUNT [CURRENCY]"` takes an amount exactly as `breaks list` or
// `show` printed it: "1,250.50 EUR" with its thousands separators, and any side of a
// currency_mismatch (the provider's, the ledger's "-95.44 EUR", signed or not). What could be
// read two ways ("1,25", "1.250,50") is refused naming --amount and the rule; a figure the break
// no longer holds is still refused as a change.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../db/connect";
import { queryRows } from "../../db/query-rows";
import { EXIT } from "../../exit-codes";
import { useBreaksCli } from "../../testing/breaks-cli";
import { testBackends } from "../../testing/databases";

describe.each(testBackends())("breaks accept --amount as list and show print it, on %s", (kind) => {
  const { opened, cli } = useBreaksCli(kind, "breaks_accept_amount");
  const accept = (id: string, amount: string) =>
    cli(["breaks", "accept", id, "--reason", "seen", "--as", "ann", "--amount", amount]);
  /** Accepts with `amount` and reopens: answers the accept's exit code and error lines. */
  const acceptAndReopen = async (id: string, amount: string) => {
    const result = await accept(id, amount);
    if (result.code === EXIT.ok)
      expect((await cli(["breaks", "reopen", id, "--as", "ann"])).code).toBe(EXIT.ok);
    return [result.code, result.err.join("\n")];
  };

  it("accepts the amount list prints, thousands separators and all", async () => {
    const id = opened.ids[0] as string; // ledger -1250.50 EUR
    const list = await cli(["breaks", "list"]);
    const printed = /\s(-?[\d,]+\.\d+ [A-Z]{3})\s/.exec(
      list.out.find((line) => line.startsWith(id)) ?? "",
    )?.[1];
    expect(printed).toBe("1,250.50 EUR");
    expect(await acceptAndReopen(id, printed as string)).toEqual([EXIT.ok, ""]);
    expect(await acceptAndReopen(id, "1,250.5 eur")).toEqual([EXIT.ok, ""]);
    // A real change is still one.
    expect((await accept(id, "1,250.51 EUR")).err.join("\n")).toMatch(/changed since it was shown/);
  });

  it("refuses an amount that could be read two ways, naming --amount and the rule", async () => {
    const id = opened.ids[0] as string;
    for (const amount of ["1,25", "1.250,50", "1,250", "12,50.00", "1,2500.00", ",250.50"]) {
      const result = await accept(id, `${amount} EUR`);
      expect(result.code, amount).toBe(EXIT.usage);
      expect(result.err.join("\n"), amount).toMatch(
        /^reconciler: --amount: .*commas only between groups of three digits/,
      );
    }
  });

  it("accepts every amount show prints of a currency_mismatch, and refuses a real change", async () => {
    const id = opened.ids[1] as string; // ledger -99.99 USD; made a mismatch with -1,710.47 HKD
    // Opened and closed around the change: a PGlite folder serves one opener at a time.
    const mismatch = async (on: boolean) => {
      const database = await openDatabase(
        opened.where[0] === "--data-dir"
          ? { dataDir: opened.where[1] as string }
          : { url: opened.where[1] as string },
      );
      await queryRows(
        database.db,
        on
          ? sql`UPDATE breaks SET class = 'currency_mismatch', currency = 'HKD',
              provider_amount = -1710.47,
              detail = 'card transaction T-2: provider -1710.47 HKD, ledger -99.99 USD (entry L-2)'
              WHERE break_id = ${id}`
          : sql`UPDATE breaks SET class = 'missing_at_provider', currency = 'USD',
              provider_amount = NULL WHERE break_id = ${id}`,
      ).finally(() => database.close());
    };
    await mismatch(true);
    try {
      const show = (await cli(["breaks", "show", id])).out.join("\n");
      expect(show).toContain("amount 99.99 HKD; card transaction T-2: provider -1,710.47 HKD");
      for (const amount of [
        "99.99 HKD", // the amount at stake as list and show print it
        "-1710.47 HKD",
        "-1,710.47 HKD",
        "1710.47 hkd",
        "-99.99 USD",
        "99.99 USD",
        "99.99",
        "-1710.47",
      ])
        expect(await acceptAndReopen(id, amount), amount).toEqual([EXIT.ok, ""]);
      for (const amount of ["1710.48 HKD", "99.99 EUR", "-1710.47 USD", "-99.99 HKD", "100"]) {
        const [code, err] = await acceptAndReopen(id, amount);
        expect(code, amount).toBe(EXIT.usage);
        expect(err, amount).toMatch(/changed since it was shown/);
      }
    } finally {
      await mismatch(false);
    }
  });
});
