import { describe, expect, it } from "vitest";
import { atScale, atScaleIfExact } from "./decimal-units";

describe("payout amounts at a currency's scale", () => {
  it("pads exactly and refuses to drop digits", () => {
    expect(atScale("100", 2)).toBe("100.00");
    expect(atScale("9007199254740993.1", 2)).toBe("9007199254740993.10");
    expect(() => atScale("1.234", 2)).toThrow(RangeError);
  });

  it("keeps a finer amount as it is rather than rounding it", () => {
    expect(atScaleIfExact("1.5", 2)).toBe("1.50");
    expect(atScaleIfExact("1.234", 2)).toBe("1.234");
  });
});
