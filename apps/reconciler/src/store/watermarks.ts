// The per-stream watermark: read it, and move it forward (never back).
import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { syncWatermarks } from "../db/schema";

function checkDate(value: Date, name: string): void {
  if (!(value instanceof Date) || Number.isNaN(value.getTime()))
    throw new RangeError(`${name} must be a valid Date`);
}

/** The end of the stream's last committed window, or null before its first commit. */
export async function readWatermark(db: Db, stream: string): Promise<Date | null> {
  const [row] = await db
    .select({ watermark: syncWatermarks.watermark })
    .from(syncWatermarks)
    .where(eq(syncWatermarks.stream, stream));
  return row?.watermark ?? null;
}

/** Every stream's watermark, for `reconciler status`. */
export function listWatermarks(
  db: Db,
): Promise<{ stream: string; watermark: Date; updatedAt: Date }[]> {
  return db.select().from(syncWatermarks).orderBy(syncWatermarks.stream);
}

/**
 * Sets the watermark to `watermark` if that is later than the stored one and returns the
 * stored value afterwards: a window committed late (a retry, a slower concurrent window) never
 * moves it back. Call inside the transaction that wrote the window's rows (commitWindow does).
 */
export async function advanceWatermark(db: Db, stream: string, watermark: Date): Promise<Date> {
  checkDate(watermark, "watermark");
  const [row] = await db
    .insert(syncWatermarks)
    .values({ stream, watermark })
    .onConflictDoUpdate({
      target: syncWatermarks.stream,
      set: { watermark: sql`excluded.watermark`, updatedAt: sql`now()` },
      setWhere: sql`excluded.watermark > ${syncWatermarks.watermark}`,
    })
    .returning({ watermark: syncWatermarks.watermark });
  if (row) return row.watermark;
  const stored = await readWatermark(db, stream);
  if (!stored) throw new Error(`watermark of ${stream} vanished`);
  return stored;
}
