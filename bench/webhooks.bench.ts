/**
 * Webhook verification throughput: verifyIssuingWebhook (header parsing, strict checks,
 * rotation loop, tolerance) against the bare minimum — one node:crypto HMAC and a
 * timingSafeEqual — and against the `standardwebhooks` package verifying an equal body.
 * Goals: ≥ 0.8× the bare loop's rate, and not slower than standardwebhooks.
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
    const signed = signIssuingWebhook({ body, secret: SECRET });
    const ts = signed.headers["x-timestamp"];
    const given = Buffer.from(signed.headers["x-signature"], "hex");
    const verify = createIssuingWebhookVerifier({ secret: SECRET });

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
          name: "verifyIssuingWebhook",
          fn: () => verify({ rawBody: body, headers: signed.headers }),
        },
        { name: "standardwebhooks", fn: () => standard.verify(body, stdHeaders) },
      ],
    });
  }
}
