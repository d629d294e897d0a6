// openDatabase on PGlite (persisted, reopened) and a Postgres server: migrations applied once,
// drivers returning int8, numeric and jsonb as text.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { advanceWatermark, readWatermark } from "../store/watermarks";
import { temporaryFolder, testBackends } from "../testing/databases";
import { migrateDatabase } from "../testing/migrate-again";
import { backendOf } from "./backend";
import { DEFAULT_DATA_DIR, databaseTarget, openDatabase } from "./connect";
import type { Database } from "./database";
import { reportDriverSocketFault } from "./driver-socket-fault";
import { defaultMigrationsFolder } from "./migrations";
import { queryRows } from "./query-rows";
import { createScratchDatabase } from "./scratch-database";

const journal = JSON.parse(
  readFileSync(join(defaultMigrationsFolder(), "meta", "_journal.json"), "utf8"),
) as { entries: unknown[] };

async function appliedMigrations(database: Database): Promise<number> {
  const [row] = await queryRows<{ n: string }>(
    database.db,
    sql`SELECT count(*) AS n FROM drizzle.__drizzle_migrations`,
  );
  return Number(row?.n);
}

async function expectTextTypes(database: Database): Promise<void> {
  const [row] = await queryRows(
    database.db,
    sql`SELECT 1953712585351499776::int8 AS id, 0.10::numeric AS amount,
      '{"id": 1953712585351499776, "amount": 0.10}'::jsonb AS doc, count(*) AS n
      FROM card_transactions WHERE false`,
  );
  expect(row).toEqual({
    id: "1953712585351499776",
    amount: "0.10",
    doc: '{"id": 1953712585351499776, "amount": 0.10}',
    n: "0",
  });
}

describe("databaseTarget", () => {
  it("prefers url, then an explicit dataDir, then DATABASE_URL, then the default folder", () => {
    const env = { DATABASE_URL: "postgres://env/db" };
    expect(databaseTarget({ url: "postgres://u/db", dataDir: "/d" }, env)).toEqual({
      kind: "postgres",
      url: "postgres://u/db",
    });
    expect(databaseTarget({ dataDir: "/d" }, env)).toEqual({ kind: "pglite", dataDir: "/d" });
    expect(databaseTarget({}, env)).toEqual({ kind: "postgres", url: "postgres://env/db" });
    expect(databaseTarget({}, {})).toEqual({
      kind: "pglite",
      dataDir: resolve(process.cwd(), DEFAULT_DATA_DIR),
    });
  });

  it("finds the committed migrations from the source tree", () => {
    expect(defaultMigrationsFolder()).toBe(resolve(import.meta.dirname, "../../drizzle"));
    expect(journal.entries.length).toBeGreaterThan(0);
  });
});

describe("openDatabase on a server it cannot reach", () => {
  // Every host of the list refuses: postgres.js kept trying for ever, and `run` hung silently.
  it("gives up within its bound, naming the server and never the password", async () => {
    const started = Date.now();
    const error = await openDatabase({
      url: "postgres://alice:s3cret@127.0.0.1:1,127.0.0.1:2/ledger",
      connectTimeoutMs: 1_000,
    }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(String(error)).toMatch(/could not reach the database at .* within 1 s/);
    expect(String(error)).not.toContain("s3cret");
  }, 20_000);

  // postgres.js threw a bare "TypeError: Invalid URL" for it.
  it("says what is wrong with a URL the driver cannot read, never quoting it", async () => {
    const error = await openDatabase({
      url: "postgres://alice:s3cret@127.0.0.1:notaport/ledger",
    }).catch((e: unknown) => e);
    expect(String(error)).toContain(
      "the database URL is not a valid URL (check the host and the port",
    );
    expect(String(error)).not.toContain("s3cret");
  });

  // Nothing listening: it was a bare "Error: connect ECONNREFUSED 127.0.0.1:…".
  it("names the server a refused connection was for, never the password", async () => {
    const error = await openDatabase({ url: "postgres://alice:s3cret@127.0.0.1:1/ledger" }).catch(
      (e: unknown) => e,
    );
    expect(String(error)).toContain(
      "could not connect to the database at 127.0.0.1:1/ledger: ECONNREFUSED",
    );
    expect(String(error)).not.toContain("s3cret");
  });

  // A raw "%" in the password: postgres.js threw a bare "URIError: URI malformed".
  it("says a password with a raw % is not a valid URL, never quoting it", async () => {
    const error = await openDatabase({
      url: "postgres://alice:s3cret%zz@127.0.0.1:5432/ledger",
    }).catch((e: unknown) => e);
    expect(String(error)).toContain("the database URL is not a valid URL (a bad %-escape");
    expect(String(error)).not.toContain("s3cret");
  });
});

// A server restart as a worker opens the database: the connection holding the migration lock
// went while idle (the migration ran on another one), and postgres.js never answered the
// unlock sent on it (written to a closed socket from a timer, an uncaught TypeError): `run`
// ended with exit 13 and no summary line. Released, that connection also hung the pool's next
// query. Made deterministic here: the migration waits on a table lock while the lock's
// connection is terminated.
describe.runIf(testBackends().includes("postgres"))(
  "openDatabase when the server drops the migration lock's connection",
  () => {
    it("finishes the migration, and the pool still answers", async () => {
      const scratch = await createScratchDatabase(
        process.env.DATABASE_URL ?? "",
        "reconciler_test",
      );
      const name = new URL(scratch.url).pathname.slice(1);
      const admin = postgres(scratch.url, { max: 2, onnotice: () => {} });
      let release: () => void = () => {};
      const released = new Promise<void>((r) => {
        release = r;
      });
      try {
        await admin`CREATE SCHEMA drizzle`;
        await admin`CREATE TABLE drizzle.__drizzle_migrations (id serial PRIMARY KEY, hash text NOT NULL, created_at bigint)`;
        let locked: () => void = () => {};
        const isLocked = new Promise<void>((r) => {
          locked = r;
        });
        const held = admin.begin(async (tx) => {
          await tx`LOCK TABLE drizzle.__drizzle_migrations IN ACCESS EXCLUSIVE MODE`;
          locked();
          await released;
        });
        await isLocked;
        const opening = openDatabase({ url: scratch.url, maxConnections: 2 });
        opening.catch(() => undefined);
        let holder: string | undefined;
        for (let i = 0; i < 200 && holder === undefined; i++) {
          const [row] =
            await admin`SELECT l.pid FROM pg_locks l JOIN pg_database d ON d.oid = l.database
            WHERE d.datname = ${name} AND l.locktype = 'advisory' AND l.granted`;
          holder = row?.pid as string | undefined;
          if (holder === undefined) await new Promise((r) => setTimeout(r, 50));
        }
        expect(holder).toBeDefined();
        await admin`SELECT pg_terminate_backend(${holder ?? 0})`;
        await new Promise((r) => setTimeout(r, 300));
        release();
        await held;
        const settled = await Promise.race([
          opening.then(
            (database) => ({ database }),
            (error: unknown) => ({ error }),
          ),
          new Promise<"hung">((r) => setTimeout(() => r("hung"), 15_000)),
        ]);
        expect(settled).not.toBe("hung");
        const database = (settled as { database?: Database }).database;
        expect(database, String((settled as { error?: unknown }).error)).toBeDefined();
        try {
          // Both pool connections answer: the dropped one was not handed back as open.
          const answers = await Promise.race([
            Promise.all([1, 2].map(() => appliedMigrations(database as Database))),
            new Promise<"hung">((r) => setTimeout(() => r("hung"), 10_000)),
          ]);
          expect(answers).toEqual([journal.entries.length, journal.entries.length]);
        } finally {
          await database?.close();
        }
      } finally {
        release();
        await admin.end({ timeout: 5 });
        await scratch.drop();
      }
    }, 60_000);

    // After a driver fault the pool is ended; postgres.js still hands out a connection asked of
    // it (reopened, and never closed again) or, once its connections are all ended, leaves the
    // request waiting forever: the account stream, starting after the other two failed, hung
    // `sync` (exit 13).
    it("refuses a held connection once the pool was ended by a fault, instead of waiting", async () => {
      const scratch = await createScratchDatabase(
        process.env.DATABASE_URL ?? "",
        "reconciler_test",
      );
      try {
        const database = await openDatabase({ url: scratch.url, maxConnections: 2 });
        try {
          reportDriverSocketFault();
          expect(database.lost()).toBe(true);
          await new Promise((r) => setTimeout(r, 100)); // the pool's end has run
          const held = backendOf(database.db).withConnection(async () => "ran");
          const outcome = await Promise.race([
            held.catch((e: unknown) => e),
            new Promise<"hung">((r) => setTimeout(() => r("hung"), 5_000)),
          ]);
          expect(String(outcome)).toContain(`CONNECTION_ENDED ${new URL(scratch.url).host}/`);
        } finally {
          await database.close();
        }
      } finally {
        await scratch.drop();
      }
    });
  },
);

describe.each(testBackends())("openDatabase on %s", (kind) => {
  it("migrates once, reads text types, and opens again without re-applying", async () => {
    if (kind === "pglite") {
      const folder = temporaryFolder("reconciler-pglite-");
      try {
        const first = await openDatabase({ dataDir: folder.path });
        try {
          expect(first.kind).toBe("pglite");
          expect(await appliedMigrations(first)).toBe(journal.entries.length);
          await expectTextTypes(first);
          await advanceWatermark(first.db, "card_transactions", new Date("2026-06-01T00:00:00Z"));
          await migrateDatabase(first);
          await migrateDatabase(first);
        } finally {
          await first.close();
        }
        // A second instance only after the first is closed: PGlite costs ~650 MB each.
        const again = await openDatabase({ dataDir: folder.path });
        try {
          expect(await appliedMigrations(again)).toBe(journal.entries.length);
          expect(await readWatermark(again.db, "card_transactions")).toEqual(
            new Date("2026-06-01T00:00:00Z"),
          );
        } finally {
          await again.close();
        }
      } finally {
        folder.remove();
      }
      return;
    }
    const serverUrl = process.env.DATABASE_URL;
    if (!serverUrl) throw new Error("DATABASE_URL is not set, but CI requires the server tests");
    const scratch = await createScratchDatabase(serverUrl, "reconciler_test");
    try {
      // Two workers starting at once: the migration lock makes one wait for the other.
      const [a, b] = await Promise.all([
        openDatabase({ url: scratch.url, maxConnections: 2 }),
        openDatabase({ url: scratch.url, maxConnections: 2 }),
      ]);
      try {
        expect([a.kind, b.kind]).toEqual(["postgres", "postgres"]);
        expect(await appliedMigrations(a)).toBe(journal.entries.length);
        await expectTextTypes(b);
        await migrateDatabase(a);
        expect(await appliedMigrations(b)).toBe(journal.entries.length);
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
      // A database set to another DateStyle: timestamps still read as dates.
      const name = new URL(scratch.url).pathname.slice(1);
      // A plain connection: openDatabase would migrate the server's own database too.
      const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
      try {
        await admin.unsafe(`ALTER DATABASE "${name}" SET DateStyle = 'SQL, DMY'`);
      } finally {
        await admin.end({ timeout: 5 });
      }
      const again = await openDatabase({ url: scratch.url, maxConnections: 2 });
      try {
        await advanceWatermark(again.db, "card_transactions", new Date("2026-11-16T16:14:09.483Z"));
        expect((await readWatermark(again.db, "card_transactions"))?.toISOString()).toBe(
          "2026-11-16T16:14:09.483Z",
        );
      } finally {
        await again.close();
      }
      await expect(openDatabase({ url: scratch.url, maxConnections: 1 })).rejects.toThrow(
        /at least 2/,
      );
    } finally {
      await scratch.drop();
    }
  }, 120_000);
});
