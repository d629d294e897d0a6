/**
 * Webhook verification throughput: verifyIssuingWebhook (header parsing, strict checks,
 * rotation loop, tolerance; Web Crypto HMAC, so asynchronous) against the bare minimum on Node —
 * one node:crypto HMAC and a timingSafeEqual — against the bare minimum in Web Crypto (one
 * crypto.subtle.sign with an imported key: what any runtime-neutral verifier pays), and against
 * the `standardwebhooks` package verifying an equal body. Reported, no goal (issue 14 §5).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { createIssuingWebhookVerifier, signIssuingWebhook } from "@merchantkit/webhooks";
import { Webhook } from "standardwebhooks";
import { compare } from "./harness";

const SECRET = Buffer.from("0123456789abcdef0123456789abcdef").toString("base64");
const KEY = Buffer.from(SECRET, "base64");

function bodyOf(bytes: number): string {
  const head =
    '{"request_id":"1953712585351499776","event_type":"issuing.cardTransactionEvent","created_at":"2027-01-15T08:00:00Z","data":{"merchantName":"';
  const tail = '"}}';
  return head + "x".repeat(bytes - head.length - tail.length) + tail;
}

export async function run(): Promise<void> {
  for (const size of [1024, 64 * 1024]) {
    const body = bodyOf(size);
    const signed = await signIssuingWebhook({ body, secret: SECRET });
    const ts = signed.headers["x-timestamp"];
    const given = Buffer.from(signed.headers["x-signature"], "hex");
    const verify = createIssuingWebhookVerifier({ secret: SECRET });
    const webKey = await crypto.subtle.importKey(
      "raw",
      KEY,
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    const encoder = new TextEncoder();

    const standard = new Webhook(SECRET);
    const id = "msg_1953712585351499776";
    const stdHeaders = {
      "webhook-id": id,
      "webhook-timestamp": ts,
      "webhook-signature": standard.sign(id, new Date(Number(ts) * 1000), body),
    };

    await compare({
      title: `verify one ${size / 1024} KB push`,
      unit: "verify",
      baseline: {
        name: "bare HMAC + timingSafeEqual",
        fn: () => {
          const expected = createHmac("sha256", KEY).update(`${ts}.${body}`).digest();
          if (!timingSafeEqual(expected, given)) throw new Error("mismatch");
        },
      },
      candidates: [
        {
          name: "bare Web Crypto HMAC + compare",
          fn: async () => {
            const mac = await crypto.subtle.sign("HMAC", webKey, encoder.encode(`${ts}.${body}`));
            if (!timingSafeEqual(new Uint8Array(mac), given)) throw new Error("mismatch");
          },
        },
        {
          name: "verifyIssuingWebhook",
          fn: () => verify({ rawBody: body, headers: signed.headers }),
        },
        { name: "standardwebhooks", fn: () => standard.verify(body, stdHeaders) },
      ],
    });
  }
}
