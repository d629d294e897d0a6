// `reconciler breaks write-off` end to end through main(), on a PGlite folder and (with
// DATABASE_URL) a Postgres server: the journal entry it books, and bad flags exiting 2 naming
// the flag with nothing written.
import { describe, expect, it } from "vitest";
import { EXIT } from "../../exit-codes";
import { useBreaksCli } from "../../testing/breaks-cli";
import { testBackends } from "../../testing/databases";

describe.each(testBackends())("reconciler breaks write-off on %s", (kind) => {
  const { opened, cli } = useBreaksCli(kind, "breaks_write_off_cli");

  it("refuses bad flags naming them, and writes nothing", async () => {
    const id = opened.ids[0] as string;
    const cases: [string[], RegExp][] = [
      [["--reason", "r", "--as", "alice"], /--account: account is required/],
      [["--account", "6800", "--as", "alice"], /--reason: reason is required/],
      [["--account", "6800", "--reason", "r"], /--as: actor is required/],
      [
        ["--account", "6800", "--reason", "r", "--as", "a", "--date", "31/05/2026"],
        /--date: date must be a calendar day/,
      ],
      [["--account", "@SUM(A1)", "--reason", "r", "--as", "a"], /--account: account must be/],
    ];
    for (const [flags, message] of cases) {
      const { code, err } = await cli(["breaks", "write-off", id, ...flags]);
      expect(code, flags.join(" ")).toBe(EXIT.usage);
      expect(err.join("\n")).toMatch(message);
    }
    const { out } = await cli(["breaks", "list", "--json"]);
    expect((JSON.parse(out.join("")) as { breakId: string }[]).map((r) => r.breakId)).toContain(id);
  });

  it("books the journal entry and takes the break out of the queue", async () => {
    const id = opened.ids[0] as string;
    const { code, out } = await cli(
      [
        "breaks",
        "write-off",
        id,
        "--account",
        "6800",
        "--reason",
        "never billed",
        "--date",
        "2026-05-31",
      ],
      { RECONCILER_ACTOR: "alice" },
    );
    expect(code).toBe(EXIT.ok);
    expect(JSON.parse(out[0] as string)).toMatchObject({
      msg: "break write-off",
      breakId: id,
      status: "accepted",
      entries: [
        {
          entryDate: "2026-05-31",
          account: "6800",
          amount: "1250.50",
          currency: "EUR",
          actor: "alice",
        },
      ],
    });
    const queue = await cli(["breaks", "list", "--json"]);
    expect(
      (JSON.parse(queue.out.join("")) as { breakId: string }[]).map((r) => r.breakId),
    ).not.toContain(id);
    const again = await cli([
      "breaks",
      "write-off",
      id,
      "--account",
      "6800",
      "--reason",
      "x",
      "--as",
      "bob",
    ]);
    expect(again.code).toBe(EXIT.usage);
    expect(again.err.join("\n")).toMatch(/already accepted \(by alice/);
  });
});
