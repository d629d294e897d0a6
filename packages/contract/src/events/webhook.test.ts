import { parseJson, stringifyJson } from "@merchantkit/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { ISSUING_WEBHOOK_HEADERS, ISSUING_WEBHOOK_RETRY, webhookAck } from "./webhook";

describe("issuing webhook transport", () => {
  it("names the signature headers and the retry rule", () => {
    expect(ISSUING_WEBHOOK_HEADERS).toEqual({ timestamp: "x-timestamp", signature: "x-signature" });
    expect(ISSUING_WEBHOOK_RETRY).toEqual({ intervalSeconds: 15, maxAttempts: 10 });
  });

  it("writes and reads the acknowledgement body", () => {
    const wire = v.parse(webhookAck.encode, { respCode: "20000", respMsg: "success" });
    expect(stringifyJson(wire)).toBe('{"respCode":"20000","respMsg":"success"}');
    expect(
      v.parse(webhookAck.decode, parseJson('{"respCode":"40000","respMsg":"bad"}')).respCode,
    ).toBe("40000");
    expect(v.safeParse(webhookAck.encode, { respCode: 20000, respMsg: "ok" }).success).toBe(false);
    expect(v.safeParse(webhookAck.encode, { respCode: "20000" }).success).toBe(false);
  });
});
