/**
 * Issue 18 §6: what the service cannot take is refused before sending. An id past 64 bits and a
 * 10,000-character string each end in a RequestValidationError naming the field and the rule,
 * and the fetch given to the client is never called.
 */
import { recordingFetch, refusalOf } from "@merchantkit/core/testing";
import { describe, expect, it } from "vitest";
import { IssuingClient } from "./issuing-client";

describe("issuing requests beyond what the service takes", () => {
  const sent = recordingFetch();
  const issuing = new IssuingClient({
    environment: { origin: "http://127.0.0.1:9" },
    apiKey: "key",
    merchantNo: "800209",
    fetch: sent.fetch,
  });

  it("refuses a cardId past 64 bits and a remark of 10,000 characters, sending nothing", async () => {
    expect(await refusalOf(issuing.cards.freeze({ cardId: "18446744073709551616" }))).toEqual([
      "cardId: must be a 64-bit id: digits without leading zeros, at most 9223372036854775807",
    ]);
    expect(await refusalOf(issuing.cards.freeze({ cardId: "9223372036854775808" }))).toHaveLength(
      1,
    );
    const remark = "x".repeat(10_000);
    const cardholder = { firstName: "A", lastName: "B", email: "a@b.co", remark };
    expect(await refusalOf(issuing.cardholders.create(cardholder))).toEqual([
      "remark: must be at most 200 characters",
    ]);
    // The stated limit of a field whose length the service does not document.
    const list = issuing.transactions.list({ startTime: 0, endTime: 1, txnType: remark });
    expect(await refusalOf(list.toArray({ limit: 1 }))).toEqual([
      "txnType: must be at most 256 characters",
    ]);
    expect(sent.calls).toEqual([]);
  });
});
