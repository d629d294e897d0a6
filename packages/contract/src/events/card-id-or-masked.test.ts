import { isJsonNumber, parseJson } from "@merchantkit/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { cardIdOrMasked } from "./card-id-or-masked";

const codec = cardIdOrMasked();

describe("cardIdOrMasked", () => {
  it("reads a JSON number or digit string as the digits", () => {
    expect(v.parse(codec.decode, parseJson("1953712585351499776"))).toBe("1953712585351499776");
    expect(v.parse(codec.decode, 42)).toBe("42");
    expect(v.parse(codec.decode, "1953712585351499776")).toBe("1953712585351499776");
  });

  it("keeps a masked card number as it is", () => {
    expect(v.parse(codec.decode, "411111******1111")).toBe("411111******1111");
  });

  it("writes digits as a bare number and anything else as a string", () => {
    const id = v.parse(codec.encode, "1953712585351499776");
    expect(isJsonNumber(id) && id.text).toBe("1953712585351499776");
    expect(v.parse(codec.encode, "411111******1111")).toBe("411111******1111");
  });

  it("refuses text that is neither a card id nor a masked number", () => {
    for (const bad of ["abc", "4111 1111 1111 1111", "411111-1111", "1*1", "12345*****1111x"]) {
      expect(v.safeParse(codec.decode, bad).success, bad).toBe(false);
      expect(v.safeParse(codec.encode, bad).success, bad).toBe(false);
    }
    // Digits are an id, written only in canonical form.
    expect(v.safeParse(codec.encode, "0123").success).toBe(false);
    expect(v.parse(codec.decode, "****1111")).toBe("****1111");
  });

  it("refuses empty text, a lossy JS number and non-integers", () => {
    expect(v.safeParse(codec.decode, "").success).toBe(false);
    expect(v.safeParse(codec.decode, 2 ** 60).success).toBe(false);
    expect(v.safeParse(codec.decode, 1.5).success).toBe(false);
    expect(v.safeParse(codec.encode, "").success).toBe(false);
  });
});
