/**
 * verifyResponseSign against the sandbox (which signs profit-share answers over their wire
 * data): on, good answers pass and altered or unsigned ones are SignatureErrors; off, nothing
 * is checked.
 */
import { isSignatureError, type SignatureError } from "@merchantkit/core";
import { type RunningSandbox, startSandbox } from "@merchantkit/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientFor, payment, receiver } from "./testing/fixtures";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ settleDelayMs: 2_000 });
});
afterAll(() => sandbox.close());

/** A fetch that rewrites every answer's text on the way in (a tampering proxy); `sent` gets each body. */
function rewriting(edit: (text: string) => string, sent: string[] = []): typeof fetch {
  return async (input, init) => {
    sent.push(String(init?.body));
    const res = await fetch(input, init);
    return new Response(edit(await res.text()), { status: res.status, headers: res.headers });
  };
}

async function shareOnce(over: Parameters<typeof clientFor>[1] = {}) {
  const profit = clientFor(sandbox, over);
  const gatewayReference = await payment(sandbox);
  return profit.share({
    gatewayReference,
    currency: "USD",
    receivers: [receiver(), receiver({ profitDetailReference: "d2", amount: "0.10" })],
    profitCompleted: false,
  });
}

describe("verifyResponseSign", () => {
  it("accepts the sandbox's signed answers of share and query", async () => {
    const profit = clientFor(sandbox, { verifyResponseSign: true });
    const share = await shareOnce({ verifyResponseSign: true });
    expect(share.sign).toMatch(/^[0-9a-f]{64}$/);
    await sandbox.admin.advanceClock(2_000);
    const settled = await profit.query({ profitReference: share.profitReference });
    expect(settled.state).toBe("success");
    const waited = await profit.waitForResult({ profitReference: share.profitReference });
    expect(waited.state).toBe("success");
  });

  it("refuses an answer whose data was altered on the way, naming the accepted share's key", async () => {
    const sent: string[] = [];
    const tampered = rewriting(
      (text) => text.replace('"amount\\":\\"0.10\\"', '"amount\\":\\"9.10\\"'),
      sent,
    );
    const error = await shareOnce({ verifyResponseSign: true, fetch: tampered }).catch(
      (e: unknown) => e,
    );
    expect(isSignatureError(error)).toBe(true);
    expect((error as SignatureError).reason).toBe("no_match");
    // The service took the share: the caller must look it up or retry with the key it carried
    // (the SDK generated it), never a new one, which would share twice.
    const { profitReference } = JSON.parse(sent[0] ?? "{}") as { profitReference: string };
    expect(profitReference).toMatch(/\S/);
    expect((error as SignatureError).idempotencyKey).toBe(profitReference);
    expect((error as SignatureError).message).toContain(profitReference);
    // The same alteration passes unnoticed with the check off: that is what the flag is for.
    const unchecked = await shareOnce({ fetch: tampered });
    expect(unchecked.receivers[1]?.amount).toBe("9.10");
  });

  it("refuses an unsigned answer only when asked to check", async () => {
    const unsigned = rewriting((text) => text.replace(/,"sign":"[0-9a-f]{64}"/, ""));
    const error = await shareOnce({ verifyResponseSign: true, fetch: unsigned }).catch(
      (e: unknown) => e,
    );
    expect(isSignatureError(error)).toBe(true);
    expect((error as SignatureError).reason).toBe("missing_sign");
    const share = await shareOnce({ fetch: unsigned });
    expect(share.sign).toBeUndefined();
  });
});
