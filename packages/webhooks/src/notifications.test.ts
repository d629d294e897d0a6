import { createHash } from "node:crypto";
import { isResponseValidationError, isSignatureError } from "@merchantkit/core";
import { describe, expect, it } from "vitest";
import {
  constructPayoutResultNotification,
  signNotification,
  verifyNotification,
} from "./notifications";

const KEY = "merchant-secret";

/** The provider-notes §1 rule, written independently: sorted non-empty values + key, SHA-256. */
function independentSign(fields: Record<string, string>): string {
  const text = Object.keys(fields)
    .filter((k) => k !== "sign" && fields[k] !== "")
    .sort()
    .map((k) => fields[k])
    .join("");
  return createHash("sha256")
    .update(text + KEY)
    .digest("hex");
}

describe("payout result notification", () => {
  const fields = {
    merchantNo: "M1",
    payoutId: "1953712585351499776",
    requestId: "r1",
    payoutStatus: "S",
    status: "success",
    errorCode: "",
  };

  it("verifies a sign made by an independent implementation and decodes the body", async () => {
    const raw = JSON.stringify({ ...fields, sign: independentSign(fields) });
    const n = await constructPayoutResultNotification({ rawBody: raw, secretKey: KEY });
    expect(n.payoutId).toBe("1953712585351499776");
    expect(n.payoutStatus).toBe("S");
  });

  it("fills payoutStatus from the status wording: success → S, failure → F, processing → P", async () => {
    const base = { merchantNo: "M1", payoutId: "1953712585351499777", requestId: "order-42" };
    const read = async (extra: Record<string, unknown>) =>
      constructPayoutResultNotification({
        rawBody: await signNotification({ body: { ...base, ...extra }, secretKey: KEY }),
        secretKey: KEY,
      });
    for (const [status, letter] of [
      ["success", "S"],
      ["failure", "F"],
      ["processing", "P"],
    ] as const) {
      const n = await read({ status, errorCode: status === "failure" ? "ACCOUNT_CLOSED" : "" });
      expect(n.payoutStatus, status).toBe(letter);
      expect(n.status).toBe(status);
      // Both fields sent and agreeing: read as they are.
      expect((await read({ status, payoutStatus: letter })).payoutStatus).toBe(letter);
    }
    // payoutStatus alone is kept; a wording this SDK does not know yet is kept, unmapped.
    const alone = await read({ payoutStatus: "F" });
    expect([alone.payoutStatus, alone.status]).toEqual(["F", undefined]);
    const later = await read({ status: "cancelled" });
    expect([later.payoutStatus, later.status]).toEqual([undefined, "cancelled"]);
  });

  it("refuses a notification whose payoutStatus and status contradict, naming both fields", async () => {
    for (const [payoutStatus, status] of [
      ["S", "failure"],
      ["F", "success"],
      ["P", "success"],
      ["S", "processing"],
    ]) {
      const rawBody = await signNotification({
        body: { merchantNo: "M1", payoutId: "1", requestId: "r1", payoutStatus, status },
        secretKey: KEY,
      });
      const error = await constructPayoutResultNotification({ rawBody, secretKey: KEY }).catch(
        (e: unknown) => e,
      );
      expect(isResponseValidationError(error), `${payoutStatus}/${status}`).toBe(true);
      if (!isResponseValidationError(error)) return;
      expect(error.issues).toHaveLength(1);
      expect(error.issues[0]?.path).toBe("payoutStatus");
      expect(error.issues[0]?.message).toMatch(/\bstatus\b/);
      expect(error.message).toMatch(/payoutStatus.*\bstatus\b/);
    }
  });

  it("reads a body given as an ArrayBuffer (await request.arrayBuffer())", async () => {
    const raw = JSON.stringify({ ...fields, sign: independentSign(fields) });
    const rawBody = await new Request("http://x/", { method: "POST", body: raw }).arrayBuffer();
    const n = await constructPayoutResultNotification({ rawBody, secretKey: KEY });
    expect(n.payoutId).toBe("1953712585351499776");
  });

  it("includes fields it does not know in the signature", async () => {
    const withNew = { ...fields, newField: "x" };
    const raw = JSON.stringify({ ...withNew, sign: independentSign(withNew) });
    expect((await verifyNotification({ rawBody: raw, secretKey: KEY })).newField).toBe("x");
    const tampered = raw.replace('"newField":"x"', '"newField":"y"');
    await expect(verifyNotification({ rawBody: tampered, secretKey: KEY })).rejects.toThrow(
      /does not match/,
    );
  });

  it("keeps 64-bit numbers exact while verifying", async () => {
    const raw = await signNotification({
      body: {
        merchantNo: "M1",
        payoutId: 1953712585351499776n,
        requestId: "r1",
        payoutStatus: "F",
      },
      secretKey: KEY,
    });
    expect(raw).toContain('"payoutId":1953712585351499776');
    expect(
      (await constructPayoutResultNotification({ rawBody: raw, secretKey: KEY })).payoutId,
    ).toBe("1953712585351499776");
  });

  it("refuses an unsigned notification and a wrong key", async () => {
    try {
      await verifyNotification({ rawBody: JSON.stringify(fields), secretKey: KEY });
      expect.unreachable();
    } catch (error) {
      expect(isSignatureError(error) && error.reason).toBe("missing_sign");
    }
    const raw = JSON.stringify({ ...fields, sign: independentSign(fields) });
    await expect(verifyNotification({ rawBody: raw, secretKey: "other" })).rejects.toThrow(
      /does not match/,
    );
  });

  it("fails a hostile body or an empty key with a typed error, never a bare RangeError", async () => {
    // Unauthenticated input: a field nested 20,000 deep overflowed the signing walk's stack.
    const depth = 20_000;
    const deep = `{"merchantNo":"M1","x":${"[".repeat(depth)}${"]".repeat(depth)},"sign":"${"0".repeat(64)}"}`;
    const nested = await verifyNotification({ rawBody: deep, secretKey: KEY }).catch((e) => e);
    expect(isResponseValidationError(nested)).toBe(true);
    const raw = JSON.stringify({ ...fields, sign: independentSign(fields) });
    const empty = await verifyNotification({ rawBody: raw, secretKey: "" }).catch((e) => e);
    expect(isSignatureError(empty) && empty.reason).toBe("bad_secret");
  });
});
