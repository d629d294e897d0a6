import { describe, expect, it } from "vitest";
import { ACCOUNT_TIMESTAMP_SKEW_MS, isValidAccountTimestamp } from "./timestamp";

const now = 1_777_370_400_000; // 2026-04-28T10:00:00Z
const NINE_59 = (9 * 60 + 59) * 1000;
const TEN = 10 * 60 * 1000;
const TEN_01 = (10 * 60 + 1) * 1000;
const ms = (t: number) => String(t);
const s = (t: number) => String(Math.floor(t / 1000));

describe("account x-timestamp", () => {
  it("allows 10 minutes either way", () => {
    expect(ACCOUNT_TIMESTAMP_SKEW_MS).toBe(600_000);
    for (const sign of [1, -1]) {
      expect(isValidAccountTimestamp(ms(now + sign * NINE_59), now)).toBe(true);
      expect(isValidAccountTimestamp(ms(now + sign * TEN), now)).toBe(true);
      expect(isValidAccountTimestamp(ms(now + sign * TEN_01), now)).toBe(false);
      expect(isValidAccountTimestamp(s(now + sign * NINE_59), now)).toBe(true);
      expect(isValidAccountTimestamp(s(now + sign * TEN_01), now)).toBe(false);
    }
  });

  it("takes 10-digit seconds and 13-digit milliseconds only", () => {
    expect(isValidAccountTimestamp("1777370400", now)).toBe(true);
    expect(isValidAccountTimestamp("1777370400000", now)).toBe(true);
    expect(isValidAccountTimestamp("17773704000", now)).toBe(false);
    expect(isValidAccountTimestamp("177737040000", now)).toBe(false);
    expect(isValidAccountTimestamp("", now)).toBe(false);
    expect(isValidAccountTimestamp("1777370400.5", now)).toBe(false);
    expect(isValidAccountTimestamp(" 1777370400", now)).toBe(false);
    expect(isValidAccountTimestamp("-777370400", now)).toBe(false);
  });
});
