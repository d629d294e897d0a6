// A database that long-running commands (schedule, webhooks) reopen when the server dropped it
// under the driver (Database.lost): the work in progress fails and reports, the next tick or
// request gets a fresh connection pool, and the process goes on.
import type { Database } from "./database";

export interface ReopeningDatabase {
  /** The open database, reopened first if it was lost; rejects while the server is away. */
  current(): Promise<Database>;
  close(): Promise<void>;
}

/** Opens with `open` now, and again whenever the open one is lost. */
export async function openReopening(
  open: () => Promise<Database>,
  onReopened?: () => void,
): Promise<ReopeningDatabase> {
  let database = await open();
  // One reopening at a time: concurrent requests wait for the same one.
  let reopening: Promise<Database> | undefined;
  return {
    current() {
      if (!database.lost()) return Promise.resolve(database);
      reopening ??= (async () => {
        try {
          // The lost pool is let go, not waited for: after a fault under the driver its end
          // may never settle, and a tick waiting on it would hold every later tick back.
          void database.close().catch(() => {});
          database = await open();
          onReopened?.();
          return database;
        } finally {
          reopening = undefined;
        }
      })();
      return reopening;
    },
    close: () => database.close(),
  };
}
