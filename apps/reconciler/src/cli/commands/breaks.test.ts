// The `breaks` commands end to end through main(): on a PGlite folder and (with DATABASE_URL)
// a Postgres server; bad input exits 2 with a message naming what is wrong, and writes nothing.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../db/connect";
import { queryRows } from "../../db/query-rows";
import { EXIT } from "../../exit-codes";
import { useBreaksCli } from "../../testing/breaks-cli";
import { spawnCli } from "../../testing/cli";
import { testBackends } from "../../testing/databases";

describe.each(testBackends())("reconciler breaks on %s", (kind) => {
  const { opened, cli } = useBreaksCli(kind, "breaks_cli");

  it("lists the queue as JSON with amounts as decimal text", async () => {
    const { code, out } = await cli(["breaks", "list", "--json"]);
    expect(code).toBe(EXIT.ok);
    const rows = JSON.parse(out.join("")) as {
      breakId: string;
      amount: string;
      currency: string;
    }[];
    expect(rows.map((r) => [r.amount, r.currency]).sort()).toEqual([
      ["10", "HKD"],
      ["1250.50", "EUR"],
      ["99.99", "USD"],
    ]);
  });

  it("accepts with --as and --reason; the break leaves the queue and shows its history", async () => {
    const id = opened.ids[0] as string;
    const accept = await cli(["breaks", "accept", id, "--reason", "written off", "--as", "alice"]);
    expect(accept.code).toBe(EXIT.ok);
    expect(JSON.parse(accept.out[0] as string)).toMatchObject({ status: "accepted", breakId: id });
    const queue = await cli(["breaks", "list", "--json"]);
    expect(
      (JSON.parse(queue.out.join("")) as { breakId: string }[]).map((r) => r.breakId),
    ).not.toContain(id);
    const accepted = await cli(["breaks", "list", "--status", "accepted", "--json"]);
    expect(JSON.parse(accepted.out.join(""))).toMatchObject([{ breakId: id, acceptedBy: "alice" }]);
    const show = await cli(["breaks", "show", id, "--json"]);
    expect(JSON.parse(show.out.join("")).history).toMatchObject([
      { action: "accept", actor: "alice", text: "written off", amount: "1250.50", currency: "EUR" },
    ]);
  });

  it("takes the actor from RECONCILER_ACTOR; comments and assigns", async () => {
    const id = opened.ids[1] as string;
    const env = { RECONCILER_ACTOR: "bob" };
    expect((await cli(["breaks", "comment", id, "called", "the", "bank"], env)).code).toBe(EXIT.ok);
    expect((await cli(["breaks", "assign", id, "carol"], env)).code).toBe(EXIT.ok);
    const mine = await cli(["breaks", "list", "--assignee", "carol", "--json"]);
    expect(JSON.parse(mine.out.join(""))).toMatchObject([
      { breakId: id, lastAction: "assign", lastActor: "bob" },
    ]);
    const show = await cli(["breaks", "show", id, "--json"]);
    expect(JSON.parse(show.out.join("")).history.map((h: { text: string }) => h.text)).toEqual([
      "called the bank",
      "carol",
    ]);
  });

  it("exits 2 for an unknown id, a missing reason, an empty actor, a second accept, an amount no longer shown", async () => {
    const count = async () => {
      const show = await cli(["breaks", "show", opened.ids[2] as string, "--json"]);
      return (JSON.parse(show.out.join("")) as { history: unknown[] }).history.length;
    };
    const before = await count();
    const cases: [string[], Record<string, string>, RegExp][] = [
      [["breaks", "accept", "0000", "--reason", "x", "--as", "a"], {}, /no break has the id 0000/],
      [["breaks", "accept", opened.ids[2] as string, "--as", "a"], {}, /reason is required/],
      [
        ["breaks", "accept", opened.ids[2] as string, "--reason", "x"],
        { RECONCILER_ACTOR: " " },
        /actor is required/,
      ],
      [
        ["breaks", "accept", opened.ids[0] as string, "--reason", "x", "--as", "dan"],
        {},
        /already accepted \(by alice/,
      ],
      [
        [
          "breaks",
          "accept",
          opened.ids[2] as string,
          "--reason",
          "x",
          "--as",
          "a",
          "--amount",
          "11",
        ],
        {},
        /changed since it was shown \(amount 11 is now 10 HKD; ledger -10 HKD\)/,
      ],
      [
        ["breaks", "reopen", opened.ids[2] as string, "--as", "dan", "--reason", "x"],
        {},
        /unknown flag --reason/,
      ],
      // A misspelt class listed nothing with exit 0.
      [
        ["breaks", "list", "--class", "amount_mismatches"],
        {},
        /--class: must be one of .*amount_mismatch/,
      ],
    ];
    for (const [words, env, message] of cases) {
      const result = await cli(words, env);
      expect(result.code, words.join(" ")).toBe(EXIT.usage);
      expect(result.err.join("\n")).toMatch(message);
    }
    expect(await count()).toBe(before);
  });

  it("exits 2 naming the flag for control characters, none as a name, an invisible or reserved actor; masks card numbers", async () => {
    const id = opened.ids[2] as string;
    const count = async () => {
      const show = await cli(["breaks", "show", id, "--json"]);
      return (JSON.parse(show.out.join("")) as { history: unknown[] }).history.length;
    };
    const before = await count();
    const cases: [string[], Record<string, string>, RegExp][] = [
      [
        ["breaks", "comment", id, "refund\u0000", "--as", "bob"],
        {},
        /^reconciler: TEXT: comment must not hold control characters \(U\+0000/,
      ],
      [
        ["breaks", "accept", id, "--reason", "ok\x1b[2J", "--as", "bob"],
        {},
        /^reconciler: --reason: reason must not hold control characters \(U\+001B/,
      ],
      [
        ["breaks", "comment", id, "x", "--as", "ali\x1b[8mce"],
        {},
        /^reconciler: --as: actor must not hold control characters/,
      ],
      [
        ["breaks", "comment", id, "x"],
        { RECONCILER_ACTOR: "bo\u0007b" },
        /--as: actor must not hold control characters/,
      ],
      [
        ["breaks", "assign", id, "eve\x1b[31mRED", "--as", "bob"],
        {},
        /^reconciler: NAME: assignee must not hold control characters/,
      ],
      [["breaks", "assign", id, "none", "--as", "bob"], {}, /NAME: .*"none".*--assignee none/],
      [
        ["breaks", "comment", id, "x", "--as", "reconciler\u200b"],
        {},
        /--as: actor "reconciler" is the name the reconciler signs/,
      ],
      [["breaks", "comment", id, "x", "--as", "\u200b"], {}, /--as: actor is required/],
      [
        ["breaks", "accept", id, "--reason", "x", "--as", "bob", "--amount", "10 USD"],
        {},
        /changed since it was shown \(currency USD is now HKD\)/,
      ],
      [
        ["breaks", "accept", id, "--reason", "x", "--as", "bob", "--class", "amount_mismatch"],
        {},
        /changed since it was shown \(class amount_mismatch is now missing_at_provider\)/,
      ],
      [
        ["breaks", "accept", id, "--reason", "x", "--as", "bob", "--amount", "10 dollars"],
        {},
        /--amount: .*AMOUNT \[CURRENCY\]/,
      ],
    ];
    for (const [words, env, message] of cases) {
      const result = await cli(words, env);
      expect(result.code, words.join(" ")).toBe(EXIT.usage);
      expect(result.err.join("\n"), words.join(" ")).toMatch(message);
    }
    expect(await count()).toBe(before);
    // The figures as `breaks list` shows them, currency and class included, are what is there.
    const comment = await cli([
      "breaks",
      "comment",
      id,
      "cardholder pan 5555555555554444",
      "--as",
      "bob",
    ]);
    expect(comment.code, comment.err.join("\n")).toBe(EXIT.ok);
    const show = await cli(["breaks", "show", id, "--json"]);
    const texts = JSON.parse(show.out.join("")).history.map((h: { text: string }) => h.text);
    expect(texts.at(-1)).toBe("cardholder pan 555555******4444");
  });

  it("shows control characters someone typed as visible escapes: no ESC reaches the terminal, no fake row", async () => {
    const id = opened.ids[2] as string;
    // Line breaks are taken in comments; bidi controls are taken out and an ESC is refused now
    // (typed-text.ts), so those rows are written as an earlier version stored them.
    expect(
      (await cli(["breaks", "comment", id, "line\nFAKE cfo accept", "--as", "alice"])).code,
    ).toBe(EXIT.ok);
    const database = await openDatabase(
      opened.where[0] === "--data-dir"
        ? { dataDir: opened.where[1] as string }
        : { url: opened.where[1] as string },
    );
    try {
      const written = (actor: string, action: string, text: string) =>
        queryRows(
          database.db,
          sql`INSERT INTO break_actions (break_id, actor, action, text, class, amount, currency)
            SELECT break_id, ${actor}, ${action}, ${text}, class, amount, currency
            FROM breaks WHERE break_id = ${id}`,
        );
      await written("ali\x1b[8mce", "comment", "\x1b[2J\x1b]0;pwned\x07");
      await written("alice", "comment", "rtl\u202eevil");
      await written("ali\x1b[8mce", "assign", "eve\x1b[31mRED");
      await queryRows(
        database.db,
        sql`UPDATE break_workflow SET assignee = ${"eve\x1b[31mRED"} WHERE break_id = ${id}`,
      );
    } finally {
      await database.close();
    }
    const show = await cli(["breaks", "show", id]);
    const list = await cli(["breaks", "list", "--status", "all"]);
    for (const { code, out } of [show, list]) {
      expect(code).toBe(EXIT.ok);
      const text = out.join("\n");
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters it must not find
      expect(text).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
      expect(text.split("\n").filter((line) => /^\s*FAKE/.test(line))).toEqual([]);
      expect(text).toContain("eve\\x1b[31mRED");
    }
    const shown = show.out.join("\n");
    expect(shown).toContain("line\\nFAKE cfo accept");
    expect(shown).toContain("\\x1b[2J\\x1b]0;pwned\\x07");
    expect(shown).toContain("rtl\\u202eevil");
    expect(shown).toContain("ali\\x1b[8mce");
    // JSON stays exact.
    const json = await cli(["breaks", "show", id, "--json"]);
    expect(JSON.parse(json.out.join("")).history.map((h: { text: string }) => h.text)).toContain(
      "line\nFAKE cfo accept",
    );
  });

  it("shows the ledger entry labelled, each amount with its currency, as the console does", async () => {
    const show = await cli(["breaks", "show", opened.ids[0] as string]);
    expect(show.code).toBe(EXIT.ok);
    const entry = show.out.slice(show.out.indexOf("Ledger entry"), show.out.indexOf("History"));
    expect(entry).toContain("  Entry ID: L-1");
    expect(entry).toContain("  Amount: -1,250.50 EUR");
    // Storage names are gone: no column spelled as stored, no currency line of its own.
    expect(entry.filter((line) => /^\s+[a-z_]+:/.test(line))).toEqual([]);
    expect(entry.filter((line) => /^\s+Currency:/.test(line))).toEqual([]);
    expect(show.out).toContain("Provider record (none)");
  });

  it("reads a value starting with '-' and a digit: --amount -99.9, a comment \"-12.50 ...\"", async () => {
    const id = opened.ids[2] as string;
    const comment = await cli(["breaks", "comment", id, "-12.50", "fee reversed", "--as", "bob"]);
    expect(comment.code, comment.err.join("\n")).toBe(EXIT.ok);
    const accept = await cli([
      "breaks",
      "accept",
      id,
      "--reason",
      "x",
      "--amount",
      "-99.9",
      "--as",
      "bob",
    ]);
    // The value was read: refused as a changed amount, not as a command line node:util refused.
    expect(accept.code).toBe(EXIT.usage);
    expect(accept.err.join("\n")).toMatch(/amount -99.9 is now 10/);
    const show = await cli(["breaks", "show", id, "--json"]);
    expect(JSON.parse(show.out.join("")).history.map((h: { text: string }) => h.text)).toContain(
      "-12.50 fee reversed",
    );
  });

  it("ends quietly when its reader goes away (`breaks show ID | head -1`)", async () => {
    const cli = spawnCli(["breaks", "show", opened.ids[2] as string, ...opened.where], {});
    cli.child.stdout?.destroy();
    const { code } = await cli.exited;
    expect(cli.err.join("\n")).not.toMatch(/EPIPE|Error|^\s+at /m);
    expect(code).toBe(141);
  }, 60_000);
});
