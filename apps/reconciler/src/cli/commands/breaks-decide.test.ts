// `reconciler breaks confirm|reject` through main(), on a PGlite folder and (with DATABASE_URL) a
// Postgres server: what is refused, exit 2 naming the flag or the rule, with nothing written
// (a confirmed or rejected proposal end to end: match/decided-proposals.test.ts).
import { describe, expect, it } from "vitest";
import { EXIT } from "../../exit-codes";
import { useBreaksCli } from "../../testing/breaks-cli";
import { testBackends } from "../../testing/databases";

describe.each(testBackends())("reconciler breaks confirm and reject on %s", (kind) => {
  const { opened, cli } = useBreaksCli(kind, "breaks_decide_cli", {
    RECONCILER_ACTOR: "alice",
  });

  it("refuses a reject without --reason, a break that is no proposal, and writes nothing", async () => {
    const id = opened.ids[0] as string;
    const cases: [string[], RegExp][] = [
      [["breaks", "reject", id], /--reason: reason is required/],
      [["breaks", "confirm"], /breaks confirm needs the break id/],
      [["breaks", "confirm", id, "--as", "reconciler"], /--as: actor "reconciler"/],
      [["breaks", "confirm", id], /is a missing_at_provider, not a proposed_match/],
      [["breaks", "reject", id, "--reason", "no"], /not a proposed_match/],
    ];
    for (const [words, message] of cases) {
      const { code, err } = await cli(words);
      expect(code, words.join(" ")).toBe(EXIT.usage);
      expect(err.join("\n")).toMatch(message);
    }
    const show = await cli(["breaks", "show", id, "--json"]);
    expect(JSON.parse(show.out.join("")).history).toEqual([]);
  });
});
