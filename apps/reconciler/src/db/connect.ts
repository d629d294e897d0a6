// openDatabase(): postgres.js against a server (DATABASE_URL) or PGlite in a local folder,
// migrated, with drivers set so money, ids and raw payloads never become JS numbers.
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { type Backend, registerBackend } from "./backend";
import { lockDataFolder } from "./data-folder-lock";
import type { Database, Db } from "./database";
import { onDriverSocketFault } from "./driver-socket-fault";
import { checkMigrated, defaultMigrationsFolder, withMigrationLock } from "./migrations";
import { noDelaySocket } from "./no-delay-socket";
import {
  CONNECT_TIMEOUT_MS,
  databaseUrlProblem,
  describeDatabaseUrl,
  reachedWithin,
} from "./reach-database";
import { withReservedConnection } from "./reserved-connection";
import * as schema from "./schema";

interface OpenDatabaseOptions {
  /** A Postgres connection URL; wins over everything else. */
  url?: string | undefined;
  /**
   * PGlite data folder (created if missing; "memory://" for a throwaway in-memory database).
   * Given explicitly it wins over DATABASE_URL; the default is .data/reconciler under the
   * working directory, used when neither url, dataDir nor DATABASE_URL is set. A folder is
   * locked while open (data-folder-lock.ts): a second open throws DataFolderInUseError.
   */
  dataDir?: string | undefined;
  /** Where the drizzle-kit migrations are; default: the app's committed drizzle folder. */
  migrationsFolder?: string | undefined;
  /**
   * postgres.js pool size (default 10, at least 2: the migration lock and each stream's lock
   * hold one connection while the work they guard uses the others; a sync of every stream
   * holds four).
   */
  maxConnections?: number | undefined;
  /** How long reaching the server may take (default CONNECT_TIMEOUT_MS, 30 s). */
  connectTimeoutMs?: number | undefined;
  /**
   * A Postgres database only read (a hot standby): every transaction is read-only, and the
   * migrations are checked to be all applied (by the primary) instead of applied.
   */
  readOnly?: boolean | undefined;
}

/** The folder PGlite uses when nothing else is configured. */
export const DEFAULT_DATA_DIR = ".data/reconciler";

// OIDs whose text must stay text: int8, json, jsonb, numeric.
const KEEP_TEXT = [20, 114, 3802, 1700] as const;
const keepText = (value: string) => value;

/**
 * Which database the options name: url, else an explicit dataDir, else DATABASE_URL, else
 * PGlite in .data/reconciler under the working directory.
 */
export function databaseTarget(
  opts: Pick<OpenDatabaseOptions, "url" | "dataDir">,
  env: { DATABASE_URL?: string | undefined } = process.env,
): { kind: "postgres"; url: string } | { kind: "pglite"; dataDir: string } {
  if (opts.url) return { kind: "postgres", url: opts.url };
  if (opts.dataDir) return { kind: "pglite", dataDir: opts.dataDir };
  if (env.DATABASE_URL) return { kind: "postgres", url: env.DATABASE_URL };
  return { kind: "pglite", dataDir: resolve(process.cwd(), DEFAULT_DATA_DIR) };
}

/**
 * Opens the reconciler's database and applies the committed migrations (under an advisory
 * lock, so workers starting together do not race; already-applied ones are skipped).
 */
export async function openDatabase(opts: OpenDatabaseOptions = {}): Promise<Database> {
  const migrationsFolder = opts.migrationsFolder ?? defaultMigrationsFolder();
  const target = databaseTarget(opts);
  const max = opts.maxConnections ?? 10;
  if (!Number.isInteger(max) || max < 2)
    throw new RangeError("maxConnections must be an integer of at least 2");
  if (target.kind === "postgres")
    return openPostgres(target.url, migrationsFolder, max, {
      connectTimeoutMs: opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
      readOnly: opts.readOnly === true,
    });
  if (opts.readOnly) throw new TypeError("a read-only database must be a Postgres server (url)");
  return openPglite(target.dataDir, migrationsFolder);
}

async function openPostgres(
  url: string,
  migrationsFolder: string,
  max: number,
  opts: { connectTimeoutMs: number; readOnly: boolean },
) {
  const { connectTimeoutMs, readOnly } = opts;
  // postgres.js throws a bare "TypeError: Invalid URL" for one it cannot parse: say what is
  // wrong instead, without the URL (it may hold a password).
  const problem = databaseUrlProblem(url);
  if (problem) throw new TypeError(`the database URL ${problem}`);
  const client = postgres(url, {
    max,
    onnotice: () => {}, // "schema drizzle already exists, skipping" on every start
    // DateStyle ISO: timestamps are parsed from the server's text, and a database or role set
    // to another style ('SQL, DMY') made every read of one an Invalid Date (the match failed).
    // Only the output format: the day/month order for reading dates is left as configured.
    connection: {
      application_name: "merchantkit-reconciler",
      TimeZone: "UTC",
      DateStyle: "ISO",
      ...(readOnly ? { default_transaction_read_only: true } : {}),
    },
    // Documented in postgres.js's README but missing from its types.
    ...({ socket: noDelaySocket() } as object),
  });
  const db = drizzlePostgres(client, { schema });
  // After drizzle(), which installs its own date parsers: json/jsonb stay text (postgres.js
  // would JSON.parse them and round 64-bit numbers); int8 and numeric are text already.
  for (const oid of KEEP_TEXT) client.options.parsers[oid] = keepText;
  let lost = false;
  // Listening from the start: a fault while the database is opened (a server restart during the
  // migration) must end the pool as well.
  const unsubscribe = onDriverSocketFault(() => {
    lost = true;
    // Ends every connection now: a query the fault left without an answer is rejected instead
    // of waiting forever, so the run in progress fails and reports.
    client.end({ timeout: 0 }).catch(() => {});
  });
  const backend: Backend = {
    kind: "postgres",
    heldLocks: new Set(),
    migrate: (migrationsFolder) => migratePostgres(db, { migrationsFolder }),
    async copyFrom(copyStatement, chunks) {
      const query = client.unsafe(`${copyStatement} FROM STDIN`);
      // postgres.js 3.4 never ends the writable when the server refuses the COPY after its last
      // line was sent (a duplicate key, a bad value): the error only reaches the query's
      // reject, a no-op once the query has resolved to the stream, and the pipeline waits
      // forever (porsager/postgres#1173). The refusal is taken from there and ends the copy.
      const pending = query as unknown as { reject: (error: unknown) => void };
      const refused = new Promise<never>((_, fail) => {
        const reject = pending.reject;
        pending.reject = (error) => {
          fail(error);
          reject(error);
        };
      });
      refused.catch(() => undefined); // a refusal before the stream exists rejects writable()
      const writable = await query.writable();
      try {
        await Promise.race([pipeline(Readable.from(chunks), writable), refused]);
      } catch (error) {
        writable.destroy();
        throw error;
      }
    },
    // Refused once the pool is ended: postgres.js reopens a connection for it that the ended
    // pool never closes, or, its connections all ended, leaves it waiting forever.
    withConnection: (fn) =>
      lost ? Promise.reject(poolEnded(url)) : withReservedConnection(client, fn),
  };
  try {
    // Reached first, within a bound; the migration lock may then wait on another worker's
    // migration for as long as that takes.
    await reachedWithin(client`SELECT 1`, connectTimeoutMs, url);
    if (readOnly) await checkMigrated(db as unknown as Db, migrationsFolder, url);
    else await withMigrationLock(backend, () => backend.migrate(migrationsFolder));
  } catch (error) {
    // Nothing of ours is in flight: a refused migration rolled back, an unreachable server
    // answers nothing (a graceful end would wait on it).
    unsubscribe();
    await client.end({ timeout: 0 });
    throw error;
  }
  const typed = db as unknown as Db;
  registerBackend(typed, backend);
  return {
    db: typed,
    kind: "postgres" as const,
    lost: () => lost,
    close: () => {
      unsubscribe();
      // Bounded: after a fault under the driver its end may never settle (see reopening-database).
      return Promise.race([client.end({ timeout: 5 }), settleAfter(6_000)]);
    },
  };
}

/** The driver's own error for a query on an ended pool, naming the server (never a password). */
function poolEnded(url: string): Error {
  const error = new Error(`write CONNECTION_ENDED ${describeDatabaseUrl(url)}`);
  return Object.assign(error, { code: "CONNECTION_ENDED" });
}

/** A promise that resolves after `ms` without keeping the process alive. */
function settleAfter(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** The folder of a PGlite data directory on disk ("file://" or a plain path), else undefined. */
function folderOnDisk(dataDir: string): string | undefined {
  if (dataDir.startsWith("file://")) return dataDir.slice("file://".length) || undefined;
  return dataDir.includes("://") ? undefined : dataDir;
}

async function openPglite(dataDir: string, migrationsFolder: string) {
  const folder = folderOnDisk(dataDir);
  if (folder !== undefined) mkdirSync(folder, { recursive: true });
  // PGlite locks nothing, and two processes on one folder corrupt it: held until closed, and a
  // second open (this process or another) is refused at once (DataFolderInUseError).
  const lock = folder === undefined ? undefined : await lockDataFolder(folder);
  const parsers = Object.fromEntries(KEEP_TEXT.map((oid) => [oid, keepText]));
  let client: PGlite;
  try {
    client = await PGlite.create(dataDir, { parsers });
  } catch (error) {
    lock?.release();
    throw error;
  }
  const db = drizzlePglite(client, { schema });
  const backend: Backend = {
    kind: "pglite",
    heldLocks: new Set(),
    migrate: (migrationsFolder) => migratePglite(db, { migrationsFolder }),
    async copyFrom(copyStatement, chunks) {
      const parts: string[] = [];
      for await (const chunk of chunks) parts.push(chunk);
      await client.query(`${copyStatement} FROM '/dev/blob'`, [], { blob: new Blob(parts) });
    },
    // One session only: the lock query runs on it, between the caller's other queries.
    withConnection: (fn) =>
      fn(async (text, params) => (await client.query(text, [...params])).rows as never),
  };
  // The lock goes only once PGlite has written its files and let them go.
  const closeAndRelease = async () => {
    try {
      await client.close();
    } finally {
      lock?.release();
    }
  };
  try {
    await withMigrationLock(backend, () => backend.migrate(migrationsFolder));
  } catch (error) {
    await closeAndRelease();
    throw error;
  }
  const typed = db as unknown as Db;
  registerBackend(typed, backend);
  let closing: Promise<void> | undefined;
  return {
    db: typed,
    kind: "pglite" as const,
    // In-process: there is no connection for a server to drop.
    lost: () => false,
    close: () => {
      closing ??= closeAndRelease();
      return closing;
    },
  };
}
