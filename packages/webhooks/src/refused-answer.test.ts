import { describe, expect, it } from "vitest";
import { constructPayoutResultNotification, signNotification } from "./notifications";
import { answerRefusedNotification, WebhookBodyTooLargeError } from "./refused-answer";
import { signIssuingWebhook } from "./sign-issuing-webhook";
import { createWebhookHandler } from "./webhook-handler";

const KEY = "merchant-secret";
const SECRET = Buffer.from("0123456789abcdef0123456789abcdef").toString("base64");
const fields = { merchantNo: "M1", payoutId: "1953712585351499776", requestId: "r1" };

/** What constructPayoutResultNotification refuses `rawBody` with, answered. */
async function answerTo(rawBody: unknown, secretKey = KEY) {
  const error = await constructPayoutResultNotification({ rawBody, secretKey }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeDefined();
  return answerRefusedNotification(error);
}

describe("answerRefusedNotification", () => {
  it("answers a missing or wrong sign 401 and an empty secret key 500, both 40100", async () => {
    const failed = { respCode: "40100", respMsg: "signature verification failed" };
    expect(await answerTo(JSON.stringify({ ...fields, payoutStatus: "S" }))).toEqual({
      status: 401,
      body: failed,
    });
    const signed = await signNotification({
      body: { ...fields, payoutStatus: "S" },
      secretKey: KEY,
    });
    expect(await answerTo(signed, "another-key")).toEqual({ status: 401, body: failed });
    expect(await answerTo(signed, "")).toEqual({ status: 500, body: failed });
  });

  it("answers a body that is not UTF-8, not JSON or out of contract 400 40000, naming the rule", async () => {
    expect(await answerTo(new Uint8Array([0x7b, 0xff, 0x7d]))).toEqual({
      status: 400,
      body: { respCode: "40000", respMsg: "body is not valid UTF-8" },
    });
    expect(await answerTo("not json")).toEqual({
      status: 400,
      body: {
        respCode: "40000",
        respMsg: "payload does not match the contract: body is not valid JSON",
      },
    });
    expect(
      await answerTo(
        await signNotification({
          body: { ...fields, payoutStatus: "S", status: "failure" },
          secretKey: KEY,
        }),
      ),
    ).toEqual({
      status: 400,
      body: {
        respCode: "40000",
        respMsg:
          "payload does not match the contract: payoutStatus: must agree with status (success → S, failure → F, processing → P)",
      },
    });
  });

  it("answers a parsed body 500 with the message saying to pass the raw body", async () => {
    const answer = await answerTo({ ...fields, payoutStatus: "S", sign: "x" });
    expect(answer.status).toBe(500);
    expect(answer.body.respCode).toBe("40100");
    expect(answer.body.respMsg).toContain("raw request body");
  });

  it("answers a body over the limit 413 and one that could not be read 400, both retried", () => {
    expect(answerRefusedNotification(new WebhookBodyTooLargeError(1024))).toEqual({
      status: 413,
      body: { respCode: "50000", respMsg: "body is over the 1024-byte limit" },
    });
    expect(answerRefusedNotification(new Error("aborted"))).toEqual({
      status: 400,
      body: { respCode: "50000", respMsg: "body could not be read" },
    });
  });

  it("answers as the issuing handler answers a push refused the same way", async () => {
    const handler = createWebhookHandler({ secret: SECRET, onEvent: () => {} });
    const { headers } = await signIssuingWebhook({ body: "{}", secret: SECRET });
    const push = (rawBody: unknown) => handler.handle({ rawBody, headers });
    expect(await answerTo(new Uint8Array([0xff]))).toEqual(await push(new Uint8Array([0xff])));
    expect(await answerTo({ sign: "x" })).toEqual(await push({ sign: "x" }));
    // Signed for another body: the signature does not match.
    expect(await answerTo(JSON.stringify(fields))).toEqual(await push('{"a":1}'));
  });
});
