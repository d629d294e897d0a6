// Test support: a receiver whose storing gives up after a second, and another session holding a
// table locked, so a push's upsert waits on it past that age.
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { startWebhookReceiver, type WebhookReceiver } from "../webhook-receiver/webhook-receiver";

/** A receiver on a free port, quiet, whose storing may take one second at most. */
export function startImpatientReceiver(opts: {
  db: Db;
  secret: string;
  payoutSecretKey?: string;
}): Promise<WebhookReceiver> {
  return startWebhookReceiver({ ...opts, port: 0, log: () => {}, takeoverAfterMs: 1_000 });
}

export interface TableLock {
  /** Ends the locking transaction; rejects when it failed. */
  release(): Promise<void>;
}

/**
 * Another session (a transaction of its own) holding `table` in ACCESS EXCLUSIVE mode: resolves
 * once the lock is held, until `release()`.
 */
export async function lockTableElsewhere(db: Db, table: string): Promise<TableLock> {
  let unlock = () => {};
  const held = new Promise<void>((resolve) => {
    unlock = resolve;
  });
  let locked = () => {};
  const isLocked = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const holder = db.transaction(async (tx) => {
    await tx.execute(sql`LOCK TABLE ${sql.identifier(table)} IN ACCESS EXCLUSIVE MODE`);
    locked();
    await held;
  });
  await Promise.race([isLocked, holder]);
  return {
    release() {
      unlock();
      return holder;
    },
  };
}
