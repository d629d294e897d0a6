import { cardOperateRecord, cardTransactionRecord } from "@merchantkit/contract";
import { isResponseValidationError, parseJson } from "@merchantkit/core";
import * as v from "valibot";
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

  describe("reads a push as leniently as the query decoder reads the same record", () => {
    const envelope = (type: string, data: string) =>
      `{"request_id":"11","event_type":"${type}","created_at":"2027-01-15T08:00:00Z","data":${data}}`;
    const txn = (extra: string) =>
      `{"txnType":"CLEARING","txnStatus":"S","txnOrderNo":"T000000000000001","cardId":1953712585351499777,"transactionAmount":100.00,"transactionCurrency":"USD"${extra}}`;
    // Limits the SDK made for what a merchant sends: the service's own data may pass them.
    it.each([
      ["a 300-character merchantName", `,"merchantName":"${"A".repeat(300)}"`],
      ["an amount as Java's BigDecimal prints 100", `,"cardAmount":1E+2,"cardCurrency":"USD"`],
      ["an amount string in exponent form", `,"settleAmount":"1.50E+1"`],
      ["a fee in exponent form", `,"transactionFee":-2.5e-1`],
      ["a 65-character origin order number", `,"originTxnOrderNo":"${"O".repeat(65)}"`],
    ])("accepts %s, with the query decoder's value", async (_what, extra) => {
      const data = txn(extra);
      const event = await constructIssuingEvent(
        await push(envelope("issuing.cardTransactionEvent", data)),
      );
      if (event.kind !== "cardTransaction") throw new Error(`read as ${event.kind}`);
      expect(event.data).toEqual(v.parse(cardTransactionRecord.decode, parseJson(data)));
    });

    it("reads an exponent amount as the exact plain decimal the query gives (1E+2 is 100)", async () => {
      const data = txn(`,"cardAmount":1E+2,"settleAmount":1.50E+1,"exchangeFee":1e-2`);
      const event = await constructIssuingEvent(
        await push(envelope("issuing.cardTransactionEvent", data)),
      );
      if (event.kind !== "cardTransaction") throw new Error(`read as ${event.kind}`);
      expect(event.data.cardAmount).toBe("100");
      expect(event.data.settleAmount).toBe("15.0");
      expect(event.data.exchangeFee).toBe("0.01");
    });

    it("accepts an operate event's exponent amounts and long text as the query does", async () => {
      const data = `{"operateRecordId":1953712585351499777,"cardId":1953712585351499778,"clientRequestId":"${"c".repeat(300)}","type":"DEPOSIT","status":"S","amount":1.001e2,"currency":"USD","remark":"${"r".repeat(1000)}","feeList":[{"feeType":"DEPOSIT","feeAmount":1E0,"feeCurrency":"USD"}]}`;
      const event = await constructIssuingEvent(
        await push(envelope("issuing.cardOperateEvent", data)),
      );
      if (event.kind !== "cardOperate") throw new Error(`read as ${event.kind}`);
      expect(event.data).toEqual(v.parse(cardOperateRecord.decode, parseJson(data)));
      expect(event.data.amount).toBe("100.1");
      expect(event.data.feeList?.[0]?.feeAmount).toBe("1");
    });

    it.each([
      [
        "a cardId that is neither an id nor a masked number",
        txn("").replace("1953712585351499777", '"abc"'),
        "data.cardId",
      ],
      [
        "an unknown txnStatus",
        txn("").replace('"txnStatus":"S"', '"txnStatus":"Q"'),
        "data.txnStatus",
      ],
      ["an empty txnOrderNo", txn("").replace('"T000000000000001"', '""'), "data.txnOrderNo"],
      ["an amount that is not a number", txn(',"cardAmount":"a lot"'), "data.cardAmount"],
      ["text where an object belongs", '"not a record"', "data"],
    ])("still refuses %s, naming the field", async (_what, data, field) => {
      const error = await constructIssuingEvent(
        await push(envelope("issuing.cardTransactionEvent", data)),
      ).catch((e: unknown) => e);
      expect(isResponseValidationError(error)).toBe(true);
      if (!isResponseValidationError(error)) return;
      expect(error.issues.map((i) => i.path)).toContain(field);
    });
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
