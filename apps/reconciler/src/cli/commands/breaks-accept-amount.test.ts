// `breaks accept ID --amount "AMOUNT [CURRENCY]"` takes an amount exactly as `breaks list` or
// `show` printed it: "1,250.50 EUR" with its thousands separators, and any side of a
// currency_mismatch (the provider's, the ledger's "-95.44 EUR", signed or not). What could be
// read two ways ("1,25", "1.250,50") is refused naming --amount and the rule; a figure the break
// no longer holds is still refused as a change.
import { describe, expect, it } from "vitest";
import { testBackends } from "../../db/test-databases";
import { EXIT } from "../exit-codes";
import { main } from "../main";
import { fakeIo } from "../test-cli";
import { useBreaksCliDatabase } from "./test-breaks-cli";

describe.each(testBackends())("breaks accept --amount as list and show print it, on %s", (kind) => {
  let where: string[];
  let ids: string[];
  const cli = async (words: string[]) => {
    const c = fakeIo();
    const code = await main([...words, ...where], c.io);
    return { code, ...c };
  };
  useBreaksCliDatabase(kind, "breaks_accept_amount", (database, seeded) => {
    where = database;
    ids = seeded;
  });
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
    const id = ids[0] as string; // ledger -1250.50 EUR
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
    const id = ids[0] as string;
    for (const amount of ["1,25", "1.250,50", "1,250", "12,50.00", "1,2500.00", ",250.50"]) {
      const result = await accept(id, `${amount} EUR`);
      expect(result.code, amount).toBe(EXIT.usage);
      expect(result.err.join("\n"), amount).toMatch(
        /^reconciler: --amount: .*commas only between groups of three digits/,
      );
    }
  });
});
