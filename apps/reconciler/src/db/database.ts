// The one database type the reconciler works with, whichever driver is underneath.
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type * as schema from "./schema";

/**
 * A drizzle database over the reconciler's schema: postgres.js against a server or PGlite in a
 * local folder. A transaction (`db.transaction(tx => ...)`) is one too, so every store function
 * that takes a Db also runs inside a caller's transaction.
 */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type DatabaseKind = "postgres" | "pglite";

/** An open database: the drizzle handle, which driver serves it, and how to close it. */
export interface Database {
  db: Db;
  kind: DatabaseKind;
  close(): Promise<void>;
  /**
   * True once the server dropped a connection in a way the driver cannot recover from
   * (driver-socket-fault.ts): the handle is closed then, and its owner opens a new one.
   */
  lost(): boolean;
}
