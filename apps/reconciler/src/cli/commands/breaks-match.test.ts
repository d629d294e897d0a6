// `reconciler breaks match|unmatch` through main(), on a PGlite folder and (with DATABASE_URL) a
// Postgres server: what is refused exits 2 naming the flag and the rule, with nothing written
// (a manual match end to end, its lapse and its undoing: match/manual-matches.test.ts).
import { describe, expect, it } from "vitest";
import { EXIT } from "../../exit-codes";
import { useBreaksCli } from "../../testing/breaks-cli";
import { testBackends } from "../../testing/databases";

describe.each(testBackends())("reconciler breaks match and unmatch on %s", (kind) => {
  const { opened, cli } = useBreaksCli(kind, "breaks_match_cli", { RECONCILER_ACTOR: "alice" });

  it("refuses what names no record, an id twice or lacks a reason, and writes nothing", async () => {
    const cases: [string[], RegExp][] = [
      [["breaks", "match", "--record", "T-1", "--reason", "r"], /--entry: entries is required/],
      [["breaks", "match", "--entry", "L-1", "--reason", "r"], /--record: records is required/],
      [["breaks", "match", "--entry", "L-1", "--record", "T-1"], /--reason: reason is required/],
      [
        ["breaks", "match", "--entry", "L-1,L-1", "--record", "T-1", "--reason", "r"],
        /--entry: entries names L-1 twice/,
      ],
      [
        ["breaks", "match", "--entry", "L-9", "--record", "T-1", "--reason", "r"],
        /--entry: no ledger entry has the id L-9/,
      ],
      [
        ["breaks", "match", "--entry", "L-1", "--record", "T-1", "--reason", "r"],
        /--record: no provider record has the id T-1/,
      ],
      [["breaks", "unmatch", "--reason", "r"], /breaks unmatch needs the manual match's id/],
      [["breaks", "unmatch", "x1", "--reason", "r"], /ID: matchId must be a manual match's id/],
      [["breaks", "unmatch", "7", "--reason", "r"], /no manual match has the id 7/],
      [["breaks", "unmatch", "7"], /--reason: reason is required/],
    ];
    for (const [words, message] of cases) {
      const { code, err } = await cli(words);
      expect(code, words.join(" ")).toBe(EXIT.usage);
      expect(err.join("\n"), words.join(" ")).toMatch(message);
    }
    const show = await cli(["breaks", "show", opened.ids[0] as string, "--json"]);
    expect(JSON.parse(show.out.join("")).history).toEqual([]);
  });
});
