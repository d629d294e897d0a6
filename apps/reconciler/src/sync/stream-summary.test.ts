// A stream's failure line names the database when the database ended the connection: the
// server's own message for a pg_terminate_backend or a restart names neither the database nor
// its host (connection-drop.test.ts drops a real server's connections).
import { describe, expect, it } from "vitest";
import { errorFields } from "./stream-summary";
import type { SyncContext } from "./sync-types";

const ctx = {
  config: { database: { url: "postgres://worker:hunter2@db.internal:6432/recon?sslmode=require" } },
} as unknown as SyncContext;

/** postgres.js's error for a session the server ended, wrapped as drizzle wraps a failed query. */
function serverEnded(code: string): Error {
  const cause = Object.assign(new Error("terminating connection due to administrator command"), {
    name: "PostgresError",
    code,
  });
  return new Error('Failed query: insert into "sync_windows" (…)\nparams: 1,2', { cause });
}

describe("errorFields", () => {
  it("names the database, without its credentials, when the server ended the session", () => {
    const fields = errorFields(ctx, serverEnded("57P01"));
    expect(fields.database).toBe("db.internal:6432/recon");
    expect(fields.error).toContain("terminating connection due to administrator command");
    expect(JSON.stringify(fields)).not.toContain("hunter2");
  });

  it("names it for the driver's closed connection too", () => {
    const closed = Object.assign(new Error("write CONNECTION_CLOSED db.internal:6432"), {
      code: "CONNECTION_CLOSED",
    });
    expect(errorFields(ctx, closed).database).toBe("db.internal:6432/recon");
  });

  it("leaves it out for any other error, the database's included", () => {
    expect(errorFields(ctx, serverEnded("23505"))).toEqual({
      error: expect.stringContaining("Failed query"),
    });
    expect(errorFields(ctx, new Error("HTTP 503 from the provider"))).toEqual({
      error: "Error: HTTP 503 from the provider",
    });
  });

  it("leaves it out when the worker runs on a local data folder (no URL)", () => {
    const local = { config: { database: { dataDir: "/tmp/r" } } } as unknown as SyncContext;
    expect(errorFields(local, serverEnded("57P01")).database).toBeUndefined();
  });
});
