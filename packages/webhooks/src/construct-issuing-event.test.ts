import { isResponseValidationError } from "@merchantkit/core";
import { describe, expect, it } from "vitest";
import { constructIssuingEvent } from "./construct-issuing-event";
import { signIssuingWebhook } from "./sign-issuing-webhook";

const SECRET = Buffer.from("0123456789abcdef0123456789abcdef").toString("base64");

async function push(body: string) {
  const signed = await signIssuingWebhook({ body, secret: SECRET });
  return { rawBody: signed.body, headers: signed.headers, secret: SECRET };
}

describe("constructIssuingEvent", () => {
  it("gives a typed card operation event with exact ids and amounts and version 1.0 by default", async () => {
    const event = await constructIssuingEvent(
      await push(
        '{"request_id":1953712585351499776,"event_type":"issuing.cardOperateEvent","created_at":"2027-01-15T08:00:00Z","data":{"operateRecordId":1953712585351499777,"cardId":1953712585351499778,"clientRequestId":"r-1","type":"DEPOSIT","status":"S","amount":100.10,"currency":"USD","feeList":[{"feeType":"DEPOSIT","feeAmount":1.50,"feeCurrency":"USD"}]}}',
      ),
    );
    expect(event.kind).toBe("cardOperate");
    if (event.kind !== "cardOperate") return;
    expect(event.request_id).toBe("1953712585351499776");
    expect(event.version).toBe("1.0");
    expect(event.data.operateRecordId).toBe("1953712585351499777");
    expect(event.data.amount).toBe("100.10");
    expect(event.data.feeList?.[0]?.feeAmount).toBe("1.50");
  });

  it("keeps a masked card number in a transaction event", async () => {
    const event = await constructIssuingEvent(
      await push(
        '{"request_id":"9","event_type":"issuing.cardTransactionEvent","created_at":"2027-01-15T08:00:00Z","version":"1.1","data":{"txnType":"CLEARING","txnStatus":"S","txnOrderNo":"T1","cardId":"411111******1111","transactionAmount":12.30,"transactionCurrency":"EUR","transactionFee":null}}',
      ),
    );
    expect(event.kind).toBe("cardTransaction");
    if (event.kind !== "cardTransaction") return;
    expect(event.data.cardId).toBe("411111******1111");
    expect(event.data.transactionAmount).toBe("12.30");
    expect(event.version).toBe("1.1");
  });

  it("hands over an unknown event type instead of throwing it away", async () => {
    const event = await constructIssuingEvent(
      await push(
        '{"request_id":"10","event_type":"issuing.cardholderKycEvent","created_at":"2027-01-15T08:00:00Z","data":{"cardholderId":1953712585351499779}}',
      ),
    );
    expect(event.kind).toBe("unknown");
    expect(event.event_type).toBe("issuing.cardholderKycEvent");
    expect(JSON.stringify(event.data)).toContain("1953712585351499779");
  });

  it("rejects a signed body that breaks the contract with a typed error", async () => {
    const error = await constructIssuingEvent(
      await push(
        '{"request_id":"1","event_type":"issuing.cardOperateEvent","created_at":"x","data":{"status":"Q"}}',
      ),
    ).catch((e: unknown) => e);
    expect(isResponseValidationError(error)).toBe(true);
  });
});
