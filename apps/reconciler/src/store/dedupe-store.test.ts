// PostgresDedupeStore on PGlite and (with DATABASE_URL) a Postgres server: a claim whose handler
// died is taken over by the service's next retry, and a handler cannot outlive its claim.
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { webhookEvents } from "../db/schema";
import { testBackends } from "../testing/databases";
import { nextId } from "../testing/records";
import { useTestDatabase } from "../testing/use-database";
import { ClaimExpiredError, DEFAULT_TAKEOVER_AFTER_MS, PostgresDedupeStore } from "./dedupe-store";

/** The service retries a push every 15 s (10 times). */
const RETRY_INTERVAL_MS = 15_000;

describe.each(testBackends())("webhook dedupe store on %s", (kind) => {
  let db: Db;
  useTestDatabase(kind, (opened) => {
    db = opened.db;
  });

  /** Moves a claim back in time, as if its handler had claimed it `ms` ago. */
  const ageClaim = (id: string, ms: number) =>
    db.execute(
      sql`UPDATE webhook_events SET claimed_at = now() - ${ms} * interval '1 millisecond'
        WHERE request_id = ${id}`,
    );

  const row = async (id: string) =>
    (await db.select().from(webhookEvents).where(eq(webhookEvents.requestId, id)))[0];

  it("lets the service's next retry take over a claim whose handler died", async () => {
    expect(DEFAULT_TAKEOVER_AFTER_MS).toBeLessThan(RETRY_INTERVAL_MS);
    const id = nextId();
    // The receiver that claimed it was killed (or lost its database) before release().
    expect(await new PostgresDedupeStore(db).claim(id)).toBe("claimed");
    const retrying = new PostgresDedupeStore(db);
    // A delivery while the handler may still be alive is asked to retry...
    await ageClaim(id, 5_000);
    expect(await retrying.claim(id)).toBe("in_flight");
    // ...and the retry 15 s later (less a second of network and clocks) claims it again.
    await ageClaim(id, RETRY_INTERVAL_MS - 1_000);
    expect(await retrying.claim(id)).toBe("claimed");
    expect(await row(id)).toMatchObject({ state: "processing", attempts: 2 });
  });

  it("refuses to record an event once its claim is older than the takeover age", async () => {
    const store = new PostgresDedupeStore(db);
    const id = nextId();
    const event = { requestId: id, eventType: "issuing.cardTransactionEvent", event: { id } };
    expect(await store.claim(id)).toBe("claimed");
    await ageClaim(id, DEFAULT_TAKEOVER_AFTER_MS + 1_000);
    // The storing transaction's last statement: it fails, so the transaction rolls back.
    await expect(db.transaction((tx) => store.recordEvent(tx, event))).rejects.toBeInstanceOf(
      ClaimExpiredError,
    );
    expect(await row(id)).toMatchObject({ state: "processing", eventType: null });
  });

  it("refuses to record an event for a claim another delivery took over", async () => {
    const slow = new PostgresDedupeStore(db);
    const id = nextId();
    const event = { requestId: id, eventType: "issuing.cardTransactionEvent", event: { id } };
    expect(await slow.claim(id)).toBe("claimed");
    await ageClaim(id, DEFAULT_TAKEOVER_AFTER_MS + 1_000);
    const taker = new PostgresDedupeStore(db);
    expect(await taker.claim(id)).toBe("claimed");
    await expect(slow.recordEvent(db, event)).rejects.toBeInstanceOf(ClaimExpiredError);
    // The slow one's release leaves the taker's claim alone; the taker stores and completes.
    await slow.release(id);
    expect(await row(id)).toMatchObject({ state: "processing", attempts: 2 });
    await taker.recordEvent(db, event);
    await taker.complete(id);
    expect(await row(id)).toMatchObject({ state: "done", eventType: event.eventType });
  });
});
