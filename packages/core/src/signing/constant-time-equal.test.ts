import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { constantTimeEqual, toHex } from "./constant-time-equal";

const bytes = (...values: number[]) => new Uint8Array(values);

describe("constantTimeEqual", () => {
  it("is true only for the same bytes of the same length", () => {
    expect(constantTimeEqual(bytes(1, 2, 3), bytes(1, 2, 3))).toBe(true);
    expect(constantTimeEqual(bytes(), bytes())).toBe(true);
    expect(constantTimeEqual(bytes(1, 2, 3), bytes(1, 2, 4))).toBe(false);
    expect(constantTimeEqual(bytes(0, 2, 3), bytes(1, 2, 3))).toBe(false);
    expect(constantTimeEqual(bytes(1, 2), bytes(1, 2, 3))).toBe(false);
  });
});

describe("toHex", () => {
  it("writes a Web Crypto digest as node:crypto's lowercase hex does", async () => {
    const text = "merchantkit ✓";
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
    expect(toHex(digest)).toBe(createHash("sha256").update(text, "utf8").digest("hex"));
    expect(toHex(bytes(0, 15, 255))).toBe("000fff");
  });
});
