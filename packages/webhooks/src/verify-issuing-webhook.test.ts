import { createHmac } from "node:crypto";
import { isSignatureError, type SignatureFailure } from "@merchantkit/core";
import { describe, expect, it } from "vitest";
import { signIssuingWebhook } from "./sign-issuing-webhook";
import { verifyIssuingWebhook } from "./verify-issuing-webhook";

const SECRET = Buffer.from("0123456789abcdef0123456789abcdef").toString("base64");
const NOW_S = 1_800_000_000;
const now = () => NOW_S * 1000;
const body =
  '{"request_id":"1953712585351499776","event_type":"issuing.cardOperateEvent","created_at":"2027-01-15T08:00:00Z","data":{"operateRecordId":1953712585351499777}}';

/** An independent signer: the contract's rule in a few lines of node:crypto. */
function independentSignature(secretBase64: string, timestamp: string, text: string): string {
  return createHmac("sha256", Buffer.from(secretBase64, "base64"))
    .update(`${timestamp}.${text}`)
    .digest("hex");
}

function headers(timestamp: string | number, signature: string) {
  return { "x-timestamp": String(timestamp), "x-signature": signature };
}

async function reason(fn: () => unknown): Promise<SignatureFailure | "passed"> {
  try {
    await fn();
    return "passed";
  } catch (error) {
    if (!isSignatureError(error)) throw error;
    return error.reason;
  }
}

describe("verifyIssuingWebhook", () => {
  const good = independentSignature(SECRET, String(NOW_S), body);

  it("accepts a push signed by an independent implementation, as string, Buffer or Uint8Array", async () => {
    for (const rawBody of [body, Buffer.from(body), new Uint8Array(Buffer.from(body))]) {
      const out = await verifyIssuingWebhook({
        rawBody,
        headers: headers(NOW_S, good),
        secret: SECRET,
        now,
      });
      expect(out).toEqual({ body, timestamp: NOW_S });
    }
  });

  it("accepts the raw bytes as an ArrayBuffer or any ArrayBufferView (request.arrayBuffer())", async () => {
    // What `await request.arrayBuffer()` gives on workers and Next.js, and views over part of
    // a larger buffer: each is the body's bytes, not a parsed object.
    const arrayBuffer = await new Request("http://x/", { method: "POST", body }).arrayBuffer();
    const bytes = new TextEncoder().encode(body);
    const padded = new Uint8Array(bytes.length + 8);
    padded.set(bytes, 4);
    const views: unknown[] = [
      arrayBuffer,
      new DataView(padded.buffer, 4, bytes.length),
      new Uint8Array(padded.buffer, 4, bytes.length),
      new Int8Array(padded.buffer, 4, bytes.length),
      new Uint8ClampedArray(bytes),
    ];
    for (const rawBody of views) {
      const out = await verifyIssuingWebhook({
        rawBody,
        headers: headers(NOW_S, good),
        secret: SECRET,
        now,
      });
      expect(out, Object.prototype.toString.call(rawBody)).toEqual({ body, timestamp: NOW_S });
    }
    // Bytes that are not UTF-8 are refused the same way in any of these forms.
    const latin1 = Uint8Array.from([...bytes.slice(0, -2), 0xe9, ...bytes.slice(-2)]);
    expect(
      await reason(() =>
        verifyIssuingWebhook({
          rawBody: latin1.buffer,
          headers: headers(NOW_S, good),
          secret: SECRET,
          now,
        }),
      ),
    ).toBe("not_utf8");
  });

  it("accepts uppercase hex and header names in any case (fetch Headers too)", async () => {
    const h = new Headers({ "X-Timestamp": String(NOW_S), "X-Signature": good.toUpperCase() });
    expect(
      await reason(() => verifyIssuingWebhook({ rawBody: body, headers: h, secret: SECRET, now })),
    ).toBe("passed");
  });

  it("names the reason of every failure", async () => {
    const v = (over: Partial<Parameters<typeof verifyIssuingWebhook>[0]>) =>
      reason(() =>
        verifyIssuingWebhook({
          rawBody: body,
          headers: headers(NOW_S, good),
          secret: SECRET,
          now,
          ...over,
        }),
      );
    expect(await v({ rawBody: body.replace("08:00", "08:01") })).toBe("no_match"); // tampered body
    expect(await v({ headers: headers(NOW_S + 1, good) })).toBe("no_match"); // tampered timestamp
    expect(
      await v({ secret: Buffer.from("another-secret-of-32-bytes-long!").toString("base64") }),
    ).toBe("no_match");
    expect(await v({ headers: headers(NOW_S, good.slice(0, 63)) })).toBe("malformed_header"); // wrong length
    expect(await v({ headers: headers("17e8", good) })).toBe("malformed_header");
    expect(await v({ headers: { "x-timestamp": String(NOW_S) } })).toBe("missing_header");
    expect(await v({ secret: "" })).toBe("bad_secret");
    expect(await v({ secret: "not base64!" })).toBe("bad_secret"); // Node would drop " " and "!"
    expect(await v({ secret: "whsec_abc=" })).toBe("bad_secret"); // a pasted prefix
    expect(await v({ secret: "=" })).toBe("bad_secret"); // decodes to nothing
    expect(await v({ rawBody: JSON.parse(body) })).toBe("parsed_body");
  });

  it("rejects stale and future timestamps outside the tolerance, both ways", async () => {
    const at = (ts: number, tolerance?: number) =>
      reason(() =>
        verifyIssuingWebhook({
          rawBody: body,
          headers: headers(ts, independentSignature(SECRET, String(ts), body)),
          secret: SECRET,
          now,
          toleranceSeconds: tolerance,
        }),
      );
    expect(await at(NOW_S - 300)).toBe("passed");
    expect(await at(NOW_S - 301)).toBe("stale_timestamp");
    expect(await at(NOW_S + 300)).toBe("passed");
    expect(await at(NOW_S + 301)).toBe("stale_timestamp");
    expect(await at(NOW_S - 1000, 1000)).toBe("passed");
  });

  it("says to pass the raw body when given a parsed object", async () => {
    await expect(
      verifyIssuingWebhook({
        rawBody: { a: 1 },
        headers: headers(NOW_S, good),
        secret: SECRET,
        now,
      }),
    ).rejects.toThrow(/raw request body/);
  });

  it("refuses a body that is not valid UTF-8 as not_utf8, whatever the signature covers", async () => {
    const v = (rawBody: unknown, signedBytes: Uint8Array) =>
      reason(() =>
        verifyIssuingWebhook({
          rawBody,
          headers: headers(
            NOW_S,
            createHmac("sha256", Buffer.from(SECRET, "base64"))
              .update(Buffer.concat([Buffer.from(`${NOW_S}.`), signedBytes]))
              .digest("hex"),
          ),
          secret: SECRET,
          now,
        }),
      );
    // An "é" in Latin-1 (the byte 0xE9), signed over the bytes as sent: not a wrong secret.
    const asSent = Buffer.from(
      body.replace("cardOperateEvent", "cardOperateEvent\u00e9"),
      "latin1",
    );
    expect(await v(asSent, asSent)).toBe("not_utf8");
    expect(await v(new Uint8Array(asSent), asSent)).toBe("not_utf8");
    // Signed over the text with U+FFFD in place of the bad byte: the bytes sent were never
    // signed, so they must not verify.
    expect(await v(asSent, Buffer.from(asSent.toString("utf8")))).toBe("not_utf8");
    // A truncated sequence, and a string holding half a surrogate pair.
    const truncated = Buffer.concat([Buffer.from(body), Buffer.from([0xe2, 0x82])]);
    expect(await v(truncated, truncated)).toBe("not_utf8");
    expect(await v(`${body}\ud800`, Buffer.from(`${body}\ud800`))).toBe("not_utf8");
    // Valid UTF-8 beyond ASCII, with a leading BOM, still verifies byte for byte.
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${body} café €`)]);
    expect(await v(bom, bom)).toBe("passed");
  });

  it("verifies during a rotation with either secret", async () => {
    const next = Buffer.from("the-next-secret-32-bytes-long!!!").toString("base64");
    const signedWithNext = independentSignature(next, String(NOW_S), body);
    for (const signature of [good, signedWithNext]) {
      expect(
        await reason(() =>
          verifyIssuingWebhook({
            rawBody: body,
            headers: headers(NOW_S, signature),
            secrets: [SECRET, next],
            now,
          }),
        ),
      ).toBe("passed");
    }
    expect(
      await reason(() =>
        verifyIssuingWebhook({
          rawBody: body,
          headers: headers(NOW_S, signedWithNext),
          secrets: [SECRET],
          now,
        }),
      ),
    ).toBe("no_match");
  });

  it("uses the secret text itself with secretEncoding utf8", async () => {
    const plain = "plain text secret";
    const signature = createHmac("sha256", plain).update(`${NOW_S}.${body}`).digest("hex");
    expect(
      await reason(() =>
        verifyIssuingWebhook({
          rawBody: body,
          headers: headers(NOW_S, signature),
          secret: plain,
          secretEncoding: "utf8",
          now,
        }),
      ),
    ).toBe("passed");
    expect(
      await reason(() =>
        verifyIssuingWebhook({
          rawBody: body,
          headers: headers(NOW_S, signature),
          secret: plain,
          now,
        }),
      ),
    ).toBe("bad_secret");
  });

  it("round-trips with signIssuingWebhook", async () => {
    const signed = await signIssuingWebhook({ body, secret: SECRET, timestamp: NOW_S });
    expect(signed.headers["x-signature"]).toBe(good);
    expect(
      await reason(() =>
        verifyIssuingWebhook({
          rawBody: signed.body,
          headers: signed.headers,
          secret: SECRET,
          now,
        }),
      ),
    ).toBe("passed");
  });
});
