// Waiting for a beneficiary's review and a payout's result, with the sandbox's clock running
// (reviews and payouts finish by themselves after their delays): the remittance that the
// service refuses during review (42200, payeeStatus WAITING) goes through after waitForReview.
import { isConnectionError, isWaitTimeoutError } from "@merchantkit/core";
import { type RunningSandbox, startSandbox } from "@merchantkit/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PayoutClient } from "./payout-client";
import { clientFor, individualPayer, usLocalPerson } from "./testing/fixtures";

let sandbox: RunningSandbox;
let payout: PayoutClient;
beforeAll(async () => {
  sandbox = await startSandbox({ reviewDelayMs: 300, settleDelayMs: 300 });
  payout = clientFor(sandbox);
});
afterAll(() => sandbox?.close());

describe("waiting for payout results", () => {
  it("waits for the review, then for the payout's final status", async () => {
    const { beneficiaryId, payeeStatus } = await payout.beneficiaries.create(
      usLocalPerson({ merchantRefId: "wait-1" }),
    );
    expect(payeeStatus).toBe("WAITING");
    const reviewed = await payout.beneficiaries.waitForReview(beneficiaryId, { intervalMs: 50 });
    expect(reviewed.payeeStatus).toBe("PASS");

    const payerId = await payout.payers.create(individualPayer());
    const transfer = await payout.transfers.create({
      beneficiaryId,
      payerId,
      sourceCurrency: "USD",
      targetCurrency: "USD",
      transactionPurpose: "salary",
      chargeFlag: "N",
      sourceAmount: "12.34",
      beneficiaryPaymentMethod: "LOCAL",
    });
    expect(transfer.payoutStatus).toBe("P");
    const done = await payout.transfers.waitForResult(transfer.payoutId, { intervalMs: 50 });
    expect(done).toMatchObject({ payoutId: transfer.payoutId, payoutStatus: "S" });
    const byRequest = await payout.transfers.waitForResult(
      { requestId: transfer.requestId },
      { intervalMs: 50 },
    );
    expect(byRequest.payoutId).toBe(transfer.payoutId);
  });

  it("gives up after timeoutMs with a WaitTimeoutError naming the status last seen", async () => {
    const slow = await startSandbox({ reviewDelayMs: 60_000 });
    try {
      const client = clientFor(slow);
      const { beneficiaryId } = await client.beneficiaries.create(
        usLocalPerson({ merchantRefId: "wait-2" }),
      );
      const error = await client.beneficiaries
        .waitForReview(beneficiaryId, { intervalMs: 20, timeoutMs: 150 })
        .catch((e: unknown) => e);
      expect(isWaitTimeoutError(error)).toBe(true);
      // Not a ConnectionError: the README's retry-on-connection-failure must not repeat a write.
      expect(isConnectionError(error)).toBe(false);
      expect(error).toMatchObject({ lastState: "WAITING", timeoutMs: 150 });
    } finally {
      await slow.close();
    }
  });
});
