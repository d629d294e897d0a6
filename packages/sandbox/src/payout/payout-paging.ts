/**
 * The payout area's paging: `size` records of page `current` (from 1), answered as
 * { records, total, size, current }. size -1 (queryPayer) returns every record on one page.
 */

export interface PayoutPage<T> {
  records: T[];
  total: number;
  size: number;
  current: number;
}

export function payoutPage<T>(all: readonly T[], size: number, current: number): PayoutPage<T> {
  if (size === -1) return { records: [...all], total: all.length, size, current: 1 };
  const start = (current - 1) * size;
  return { records: all.slice(start, start + size), total: all.length, size, current };
}
