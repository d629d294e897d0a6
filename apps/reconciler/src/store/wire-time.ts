// Times as the service writes them (ISO 8601, or "YYYY-MM-DD HH:mm:ss" in the payout area), read
// into a form Postgres takes unambiguously.

// The ISO 8601 forms Postgres reads unambiguously; the zone defaults to UTC when absent.
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-](\d{2})(?::?(\d{2}))?)?$/i;

/**
 * A wire time (balanceUpdDate, a payout's createTime) as a timestamptz Postgres can read, or null. The contract only checks the
 * date-and-time head, so an odd form (or an impossible date such as Feb 30, which Postgres
 * would refuse and so fail the whole batch) is stored as null here and stays readable in raw.
 */
export function normaliseWireTime(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const m = ISO.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, sec = "00", fraction = "", zone = "Z", zh = "0", zm = "0"] = m;
  const day = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  const real =
    day.getUTCFullYear() === Number(y) &&
    day.getUTCMonth() === Number(mo) - 1 &&
    day.getUTCDate() === Number(d) &&
    Number(h) < 24 &&
    Number(mi) < 60 &&
    Number(sec) < 60 &&
    Number(zh) < 16 &&
    Number(zm) < 60;
  return real ? `${y}-${mo}-${d}T${h}:${mi}:${sec}${fraction}${zone.toUpperCase()}` : null;
}
