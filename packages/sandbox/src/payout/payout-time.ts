/**
 * The payout area's time format, "YYYY-MM-DD HH:mm:ss" in UTC (the format of the txn/queryList
 * filters; the zone is not documented, UTC is our choice). Same-width strings compare as times.
 */

export function formatPayoutTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace("T", " ");
}

/** True when `time` lies in [start, end]; a missing bound is open. */
export function inWindow(time: string | undefined, start?: string, end?: string): boolean {
  if (start === undefined && end === undefined) return true;
  if (time === undefined) return false;
  return (start === undefined || time >= start) && (end === undefined || time <= end);
}
