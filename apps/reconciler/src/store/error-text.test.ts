// Stored error text never carries secrets or card numbers.
import { describe, expect, it } from "vitest";
import { errorText } from "./error-text";

describe("errorText", () => {
  it("masks secret pairs, URL passwords and card numbers", () => {
    const text = errorText(
      new Error(
        'failed: apikey=abc123 "secretKey":"s3" sign: ff00 postgres://user:pw@host/db card 4111 1111 1111 1111 ok=1',
      ),
    );
    expect(text).not.toMatch(/abc123|s3"|ff00|pw@|4111/);
    expect(text).toContain("Error: failed:");
    expect(text).toContain("ok=1");
  });

  it("masks a card number glued to letters or inside a longer run of digits", () => {
    // JSON.parse quotes a bad body in its message: a signed push of `PAN4111111111111111 `.
    const text = errorText(
      new SyntaxError(
        `Unexpected token 'P', "PAN4111111111111111 " is not valid JSON; ref 41111111111111111234`,
      ),
    );
    expect(text).not.toMatch(/4111/);
    expect(text).toContain("Unexpected token 'P'");
  });

  it("masks card numbers however their groups are written apart, and keeps short numbers", () => {
    for (const card of [
      "4111.1111.1111.1111",
      "4111/1111/1111/1111",
      "4111_1111_1111_1111",
      "4111\u00a01111\u00a01111\u00a01111",
      "4111  1111  1111  1111",
    ]) {
      const text = errorText(`declined: card ${card} on 2026-11-26T10:00:00Z, amount 12.30`);
      expect(text).toBe("declined: card [REDACTED] on 2026-11-26T10:00:00Z, amount 12.30");
    }
    // 12 digits are no card number here (the stored-error rule starts at 13).
    expect(errorText("order 123456789012 failed")).toBe("order 123456789012 failed");
  });

  it("caps the length", () => {
    expect(errorText("x".repeat(5_000)).length).toBeLessThanOrEqual(2_001);
  });
});
