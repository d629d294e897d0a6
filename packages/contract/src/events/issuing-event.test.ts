import { isJsonNumber, parseJson, stringifyJson } from "@merchantkit/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { cardTransactionRecord } from "../issuing/records";
import { cardOperateEvent } from "./card-operate-event";
import { cardTransactionEvent } from "./card-transaction-event";
import { issuingEvent } from "./issuing-event";

const envelope = (type: string, data: string) =>
  parseJson(
    `{"request_id":"1953712585351499776","event_type":"${type}","created_at":"2025-08-01T08:00:00Z","data":${data}}`,
  );

const operateData = `{"operateRecordId":1953712585351499777,"cardId":1953712585351499776,
  "clientRequestId":"dep-1","type":"DEPOSIT","status":"S","amount":100.10,"currency":"USD",
  "feeList":[{"feeType":"DEPOSIT","feeAmount":1.00,"feeCurrency":"USD"}]}`;

const txnData = (cardId: string) => `{"txnType":"AUTHORIZATION","txnStatus":"P","txnOrderNo":"T1",
  "cardId":${cardId},"transactionAmount":9.90,"transactionCurrency":"USD","transactionTime":1754006400123,
  "transactionFee":0.10,"transactionFeeCurrency":"USD","merchantName":"Coffee","merchantMccCode":"5814"}`;

describe("issuing events", () => {
  it("decodes a card operate event with its ids, amounts, fees and the default version", () => {
    const event = v.parse(issuingEvent.decode, envelope("issuing.cardOperateEvent", operateData));
    expect(event.event_type).toBe("issuing.cardOperateEvent");
    expect(event.version).toBe("1.0");
    if (event.event_type !== "issuing.cardOperateEvent") throw new Error("wrong variant");
    expect(event.data).toMatchObject({
      operateRecordId: "1953712585351499777",
      cardId: "1953712585351499776",
      type: "DEPOSIT",
      status: "S",
      amount: "100.10",
    });
    expect(event.data.feeList?.[0]?.feeAmount).toBe("1.00");
  });

  it("holds the operate status to P, S, F but lets a new operation type through", () => {
    const bad = envelope(
      "issuing.cardOperateEvent",
      operateData.replace('"status":"S"', '"status":"X"'),
    );
    expect(v.safeParse(cardOperateEvent.decode, bad).success).toBe(false);
    const newType = envelope(
      "issuing.cardOperateEvent",
      operateData.replace('"DEPOSIT","status"', '"REISSUE","status"'),
    );
    expect(v.safeParse(cardOperateEvent.decode, newType).success).toBe(true);
  });

  it("decodes a card transaction event whose cardId is a masked card number", () => {
    const event = v.parse(
      cardTransactionEvent.decode,
      envelope("issuing.cardTransactionEvent", txnData('"411111******1111"')),
    );
    expect(event.data.cardId).toBe("411111******1111");
    expect(event.data.transactionAmount).toBe("9.90");
    const wire = v.parse(cardTransactionEvent.encode, event);
    expect(wire.data.cardId).toBe("411111******1111");
  });

  it("decodes a card transaction event whose cardId is a 64-bit id, and writes it back bare", () => {
    const event = v.parse(
      issuingEvent.decode,
      envelope("issuing.cardTransactionEvent", txnData("1953712585351499776")),
    );
    if (event.event_type !== "issuing.cardTransactionEvent") throw new Error("wrong variant");
    expect(event.data.cardId).toBe("1953712585351499776");
    const wire = v.parse(cardTransactionEvent.encode, event);
    expect(isJsonNumber(wire.data.cardId)).toBe(true);
    expect(stringifyJson(wire)).toContain('"cardId":1953712585351499776,');
    const asText = v.parse(
      cardTransactionEvent.decode,
      envelope("issuing.cardTransactionEvent", txnData('"1953712585351499776"')),
    );
    expect(asText.data.cardId).toBe("1953712585351499776");
  });

  it("takes all five transaction types and refuses an unknown status or an empty cardId", () => {
    for (const type of ["AUTHORIZATION", "REVERSAL", "CLEARING", "REFUND", "VERIFICATION"]) {
      const body = envelope(
        "issuing.cardTransactionEvent",
        txnData("1").replace("AUTHORIZATION", type),
      );
      expect(v.safeParse(issuingEvent.decode, body).success, type).toBe(true);
    }
    const status = envelope("issuing.cardTransactionEvent", txnData("1").replace('"P"', '"Q"'));
    expect(v.safeParse(issuingEvent.decode, status).success).toBe(false);
    const empty = envelope("issuing.cardTransactionEvent", txnData('""'));
    expect(v.safeParse(issuingEvent.decode, empty).success).toBe(false);
  });

  it("reads null fee fields as absent", () => {
    const body = envelope(
      "issuing.cardTransactionEvent",
      txnData("1").replace('"transactionFee":0.10', '"transactionFee":null,"exchangeFee":null'),
    );
    const event = v.parse(cardTransactionEvent.decode, body);
    expect(event.data.transactionFee == null).toBe(true);
    expect(event.data.exchangeFee == null).toBe(true);
  });

  it("does not take an unknown event type (that is unknownIssuingEvent's job)", () => {
    const body = envelope("issuing.cardReissueEvent", "{}");
    expect(v.safeParse(issuingEvent.decode, body).success).toBe(false);
  });

  describe("a push is read as leniently as a query answer, its shape still held", () => {
    const refused = (data: string) => {
      const result = v.safeParse(
        issuingEvent.decode,
        envelope("issuing.cardTransactionEvent", data),
      );
      return result.success
        ? undefined
        : result.issues.map((i) => `${v.getDotPath(i)}: ${i.message}`);
    };
    const txn = txnData("1953712585351499776");
    it.each([
      [
        "a cardId of letters",
        txn.replace('"cardId":1953712585351499776', '"cardId":"abc"'),
        "data.cardId",
      ],
      ["an empty txnOrderNo", txn.replace('"T1"', '""'), "data.txnOrderNo"],
      ["an unknown txnStatus", txn.replace('"txnStatus":"P"', '"txnStatus":"Q"'), "data.txnStatus"],
      [
        "an amount that is no number",
        txn.replace('"transactionAmount":9.90', '"transactionAmount":"ten"'),
        "data.transactionAmount",
      ],
    ])("refuses %s, naming the field", (_what, data, field) => {
      const issues = refused(data);
      expect(
        issues?.some((issue) => issue.startsWith(`${field}:`)),
        String(issues),
      ).toBe(true);
    });
    it.each([
      ["the forms the contract documents", txn],
      ["a masked cardId", txnData('"411111******1111"')],
      ["a cardId past 64 bits", txn.replace("1953712585351499776", "18446744073709551616")],
      [
        "an amount in exponent form",
        txn.replace('"transactionAmount":9.90', '"transactionAmount":1E+2'),
      ],
      [
        "an amount string in exponent form",
        txn.replace('"transactionAmount":9.90', '"transactionAmount":"1e2"'),
      ],
      ["a 65-character txnOrderNo", txn.replace('"T1"', `"${"T".repeat(65)}"`)],
      ["a 5,000-character merchant name", txn.replace('"Coffee"', `"${"c".repeat(5000)}"`)],
    ])("accepts %s, as queryTxnList reads the record", (_what, data) => {
      expect(refused(data)).toBeUndefined();
      const event = v.parse(
        cardTransactionEvent.decode,
        envelope("issuing.cardTransactionEvent", data),
      );
      // Every field but cardId, which the query holds to an id (a push may mask it).
      const { cardId: _pushed, ...rest } = event.data;
      const { cardId: _queried, ...record } = v.parse(
        cardTransactionRecord.decode,
        parseJson(data.replace(/"cardId":[^,]+/, '"cardId":1')),
      );
      expect(rest).toEqual(record);
    });
    it("reads an exponent amount as the exact decimal string the query gives", () => {
      const event = v.parse(
        cardTransactionEvent.decode,
        envelope(
          "issuing.cardTransactionEvent",
          txn.replace('"transactionAmount":9.90', '"transactionAmount":1E+2'),
        ),
      );
      expect(event.data.transactionAmount).toBe("100");
    });
    it("reads an operate event's ids and amounts as the operate-record query does", () => {
      const read = (data: string) =>
        v.safeParse(issuingEvent.decode, envelope("issuing.cardOperateEvent", data)).success;
      expect(read(operateData)).toBe(true);
      expect(read(operateData.replace("1953712585351499777", "99999999999999999999"))).toBe(true);
      expect(read(operateData.replace('"amount":100.10', '"amount":1.001e2'))).toBe(true);
      expect(read(operateData.replace('"feeAmount":1.00', '"feeAmount":1E0'))).toBe(true);
      expect(read(operateData.replace('"status":"S"', '"status":"X"'))).toBe(false);
      expect(read(operateData.replace("1953712585351499777", '"abc"'))).toBe(false);
    });
  });
});
