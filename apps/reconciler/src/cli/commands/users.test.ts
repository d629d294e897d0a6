// `reconciler users add|list|disable` through main(), on a PGlite folder and (with DATABASE_URL)
// a Postgres server: the password printed once and stored only as a scrypt hash that it
// matches, one account per name whatever its case, bad input exiting 2 naming what was wrong,
// and a disabled account listed as such.
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../db/connect";
import { EXIT } from "../../exit-codes";
import { useBreaksCli } from "../../testing/breaks-cli";
import { testBackends } from "../../testing/databases";
import { userForSignIn } from "../../workflow/console-users";
import { passwordMatches } from "../../workflow/password-hash";

describe.each(testBackends())("reconciler users on %s", (kind) => {
  const { opened, cli } = useBreaksCli(kind, "users_cli");

  const withDatabase = async <T>(work: (db: Parameters<typeof userForSignIn>[0]) => Promise<T>) => {
    const [flag, where] = opened.where as [string, string];
    const database = await openDatabase(
      flag === "--data-dir" ? { dataDir: where } : { url: where },
    );
    try {
      return await work(database.db);
    } finally {
      await database.close();
    }
  };

  it("adds an account and prints its password once; only a salted scrypt hash is stored", async () => {
    const { code, out } = await cli(["users", "add", "Ana Lyst", "--role", "Approver"]);
    expect(code).toBe(EXIT.ok);
    const added = JSON.parse(out.join("")) as { name: string; role: string; password: string };
    expect(added).toMatchObject({ msg: "user added", name: "Ana Lyst", role: "approver" });
    expect(added.password).toMatch(/^[\w-]{24}$/);
    const second = JSON.parse(
      (await cli(["users", "add", "Ben", "--role", "viewer"])).out.join(""),
    ) as { password: string };
    await withDatabase(async (db) => {
      const ana = await userForSignIn(db, "ana lyst");
      const ben = await userForSignIn(db, "BEN");
      expect(ana?.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
      expect(ana?.passwordHash).not.toContain(added.password);
      // Each its own salt: the same scheme, different salts.
      expect(ana?.passwordHash.split("$")[4]).not.toBe(ben?.passwordHash.split("$")[4]);
      expect(await passwordMatches(added.password, ana?.passwordHash as string)).toBe(true);
      expect(await passwordMatches(second.password, ana?.passwordHash as string)).toBe(false);
    });
  });

  it("refuses a taken name in any case, a bad role, a missing or reserved name (exit 2, nothing added)", async () => {
    const cases: [string[], RegExp][] = [
      [
        ["users", "add", "ANA LYST", "--role", "viewer"],
        /an account named ANA LYST exists already/,
      ],
      [
        ["users", "add", "Carl", "--role", "admin"],
        /--role: role must be one of viewer, preparer, approver/,
      ],
      [["users", "add", "Carl"], /--role: role must be one of/],
      [["users", "add", "--role", "viewer"], /users add needs the person's NAME/],
      [
        ["users", "add", "reconciler", "--role", "viewer"],
        /NAME: name "reconciler" is the name the reconciler signs/,
      ],
      [["users", "add", "Carl", "Smith", "--role", "viewer"], /unexpected words: Smith/],
      [["users", "disable", "nobody"], /no account is named nobody/],
    ];
    for (const [words, message] of cases) {
      const { code, err } = await cli(words);
      expect(code, words.join(" ")).toBe(EXIT.usage);
      expect(err.join("\n")).toMatch(message);
    }
    const { out } = await cli(["users", "list"]);
    expect(out.map((l) => (JSON.parse(l) as { name: string }).name)).toEqual(["Ana Lyst", "Ben"]);
  });

  it("resets a password: the new one printed once and matching; an unknown name refused", async () => {
    const before = await withDatabase(
      async (db) => (await userForSignIn(db, "ana lyst"))?.passwordHash,
    );
    const { code, out } = await cli(["users", "reset-password", "ANA LYST"]);
    expect(code).toBe(EXIT.ok);
    const reset = JSON.parse(out.join("")) as { msg: string; name: string; password: string };
    expect([reset.msg, reset.name]).toEqual(["user password reset for", "Ana Lyst"]);
    const after = await withDatabase(
      async (db) => (await userForSignIn(db, "ana lyst"))?.passwordHash,
    );
    expect(after).not.toBe(before);
    expect(await passwordMatches(reset.password, after as string)).toBe(true);
    const unknown = await cli(["users", "reset-password", "nobody"]);
    expect(unknown.code).toBe(EXIT.usage);
    expect(unknown.err.join("\n")).toMatch(/no account that can sign in is named nobody/);
  });

  it("disables an account: listed with when, and it can no longer sign in", async () => {
    const { code, out } = await cli(["users", "disable", "ben"]);
    expect(code).toBe(EXIT.ok);
    expect(JSON.parse(out.join(""))).toMatchObject({ msg: "user disabled", name: "Ben" });
    const listed = (await cli(["users", "list"])).out.map(
      (l) => JSON.parse(l) as { name: string; role: string; disabledAt: string | null },
    );
    expect(listed.map((u) => [u.name, u.role, u.disabledAt !== null])).toEqual([
      ["Ana Lyst", "approver", false],
      ["Ben", "viewer", true],
    ]);
    expect((await withDatabase((db) => userForSignIn(db, "ben")))?.disabled).toBe(true);
  });
});

// Accounts limited to entities: --limit-to names MERCHANT_NO or sub-merchants of
// RECONCILER_ENTITIES (stored '' for the merchant itself), `all` lifts the limit, and any other
// entity is refused naming the flag and the rule, nothing added or changed.
describe.each(testBackends())("reconciler users --limit-to on %s", (kind) => {
  const env = { MERCHANT_NO: "M1", RECONCILER_ENTITIES: "M2,M3" };
  const { cli } = useBreaksCli(kind, "users_entities_cli", env);
  const listed = async () =>
    (await cli(["users", "list"])).out.map((l) => {
      const u = JSON.parse(l) as { name: string; entities: string };
      return [u.name, u.entities];
    });

  it("adds an account limited to entities, changes its limit, and lists it", async () => {
    const added = await cli(["users", "add", "Sam", "--role", "preparer", "--limit-to", "M2,M1"]);
    expect(added.code, added.err.join("\n")).toBe(EXIT.ok);
    expect(JSON.parse(added.out.join(""))).toMatchObject({ name: "Sam", entities: "M2,M1" });
    expect((await cli(["users", "add", "Una", "--role", "viewer"])).code).toBe(EXIT.ok);
    expect(await listed()).toEqual([
      ["Sam", "M2,M1"],
      ["Una", "all"],
    ]);
    const set = await cli(["users", "set-entities", "una", "--limit-to", "M3"]);
    expect(set.code, set.err.join("\n")).toBe(EXIT.ok);
    expect((await cli(["users", "set-entities", "SAM", "--limit-to", "all"])).code).toBe(EXIT.ok);
    expect(await listed()).toEqual([
      ["Sam", "all"],
      ["Una", "M3"],
    ]);
  });

  it("refuses an entity that is neither the merchant nor a sub-merchant, naming the flag and the rule", async () => {
    const cases: [string[], RegExp][] = [
      [
        ["users", "add", "Vera", "--role", "viewer", "--limit-to", "M2,M9"],
        /--limit-to: must be the merchant \(MERCHANT_NO M1\) or a sub-merchant of RECONCILER_ENTITIES \(M2, M3\); got "M9"/,
      ],
      [
        ["users", "add", "Vera", "--role", "viewer", "--limit-to", "M2,,M3"],
        /--limit-to: name entities separated by single commas/,
      ],
      [["users", "add", "Vera", "--role", "viewer", "--limit-to", "M2,M2"], /names M2 twice/],
      [["users", "set-entities", "Una", "--limit-to", "M4"], /--limit-to: must be the merchant/],
      [["users", "set-entities", "Una"], /--limit-to: needs the entities/],
      [["users", "set-entities", "nobody", "--limit-to", "M2"], /no account is named nobody/],
    ];
    for (const [words, message] of cases) {
      const { code, err } = await cli(words);
      expect(code, words.join(" ")).toBe(EXIT.usage);
      expect(err.join("\n")).toMatch(message);
    }
    expect(await listed()).toEqual([
      ["Sam", "all"],
      ["Una", "M3"],
    ]);
  });
});
