// balanceUpdDate normalisation: readable ISO 8601 times only, UTC when no zone is given.
import { describe, expect, it } from "vitest";
import { normaliseWireTime } from "./wire-time";

describe("normaliseWireTime", () => {
  it("keeps ISO 8601 forms and adds UTC where the zone is missing", () => {
    expect(normaliseWireTime("2026-04-28T10:00:00.123Z")).toBe("2026-04-28T10:00:00.123Z");
    expect(normaliseWireTime("2026-04-28 10:00")).toBe("2026-04-28T10:00:00Z");
    expect(normaliseWireTime("2026-04-28T10:00:00+08:00")).toBe("2026-04-28T10:00:00+08:00");
  });

  it("gives null for impossible or unreadable times", () => {
    for (const value of ["2026-02-30T10:00Z", "2026-04-28T24:00Z", "28/04/2026", 17, undefined])
      expect(normaliseWireTime(value)).toBeNull();
  });
});
