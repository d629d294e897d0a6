/**
 * The contract's whole payout process against the sandbox over HTTP: fields → beneficiary →
 * review passes → remittance → result notification and query → voucher.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { isInvalidRequestError, subtractDecimal } from "@merchantkit/core";
import { type RunningSandbox, startSandbox } from "@merchantkit/sandbox";
import {
  constructPayoutResultNotification,
  type PayoutResultNotification,
} from "@merchantkit/webhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkBeneficiaryDraft } from "./check-beneficiary-draft";
import type { PayoutClient } from "./payout-client";
import { clientFor, individualPayer, SECRET_KEY, usLocalPerson } from "./testing/fixtures";

let sandbox: RunningSandbox;
let payout: PayoutClient;
let receiver: Server;
const notifications: PayoutResultNotification[] = [];

/** The merchant's notification endpoint: verifies the sign, keeps the result, acknowledges. */
function startReceiver(): Promise<string> {
  receiver = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", async () => {
      notifications.push(
        await constructPayoutResultNotification({ rawBody: body, secretKey: SECRET_KEY }),
      );
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ respCode: "20000", respMsg: "success" }));
    });
  });
  return new Promise((resolve) => {
    receiver.listen(0, "127.0.0.1", () => {
      resolve(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/payout-result`);
    });
  });
}

beforeAll(async () => {
  const webhookUrl = await startReceiver();
  sandbox = await startSandbox({
    reviewDelayMs: 5_000,
    settleDelayMs: 2_000,
    webhookUrls: { payout: webhookUrl },
    webhookRetryIntervalMs: 10,
  });
  payout = clientFor(sandbox);
});

afterAll(async () => {
  await sandbox.close();
  await new Promise((resolve) => receiver.close(resolve));
});

describe("the four-phase payout flow", () => {
  it("runs from the field template to the voucher", async () => {
    // Pre-setup: which methods exist, and what a LOCAL beneficiary must carry.
    const { paymentMethods } = await payout.paymentMethods.list({
      destinationCountry: "US",
      accountCurrency: "USD",
      entityType: "1",
    });
    expect(paymentMethods).toEqual(expect.arrayContaining(["LOCAL", "SWIFT"]));
    const template = await payout.paymentFields.retrieve({
      payoutCurrency: "USD",
      bankCountry: "US",
      entityType: "1",
      paymentMethod: "LOCAL",
    });
    expect(template.accountInfomation.cardNumber).toBe("Y");

    const draft = usLocalPerson();
    expect(
      checkBeneficiaryDraft(template, { ...draft, address: { countryCode: "US" } }),
    ).toMatchObject({
      ok: false,
      missing: { address: ["state", "city", "addressLine1", "postalCode"] },
    });
    expect(checkBeneficiaryDraft(template, draft).ok).toBe(true);

    const created = await payout.beneficiaries.create(draft);
    expect(created.payeeStatus).toBe("WAITING");
    const beneficiaryId = created.beneficiaryId;
    const payerId = await payout.payers.create(individualPayer());

    // A payout before the review ends is refused by the service.
    const early = await payout.transfers
      .create({
        beneficiaryId,
        payerId,
        sourceCurrency: "USD",
        targetCurrency: "USD",
        transactionPurpose: "salary",
        chargeFlag: "N",
        sourceAmount: "100.00",
        beneficiaryPaymentMethod: "LOCAL",
      })
      .catch((e: unknown) => e);
    expect(isInvalidRequestError(early)).toBe(true);
    expect(early).toMatchObject({ respCode: "42200" });

    await sandbox.admin.advanceClock(5_000);
    const reviewed = await payout.beneficiaries.retrieve({ beneficiaryId });
    expect(reviewed.payeeStatus).toBe("PASS");
    expect(reviewed.receiverInfo).toEqual(draft.receiverInfo);

    // Initiation.
    const [before] = await payout.balances.list({ currency: "USD" });
    const { data: transfer, response } = await payout.transfers
      .create({
        beneficiaryId,
        payerId,
        sourceCurrency: "USD",
        targetCurrency: "USD",
        transactionPurpose: "salary",
        chargeFlag: "N",
        sourceAmount: "100.00",
        beneficiaryPaymentMethod: "LOCAL",
      })
      .withResponse();
    expect(transfer.payoutStatus).toBe("P");
    expect(transfer.requestId).toMatch(/^[0-9a-f]{32}$/);
    expect(response.idempotencyKey).toBe(transfer.requestId);
    expect(transfer.sourceAmount).toBe("100.00");

    // Result: the notification (signed, verified by the receiver) and the query agree.
    await sandbox.admin.advanceClock(2_000);
    await sandbox.admin.waitForDeliveries();
    const mine = notifications.filter((n) => n.payoutId === transfer.payoutId);
    expect(mine.map((n) => n.payoutStatus)).toEqual(["P", "S"]);
    expect(mine[1]?.requestId).toBe(transfer.requestId);
    const done = await payout.transfers.retrieve({ requestId: transfer.requestId });
    expect(done).toMatchObject({ payoutId: transfer.payoutId, payoutStatus: "S" });
    expect(done.finishTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    // Completion: the receipt.
    const voucher = await payout.transfers.retrieveVoucher({ payoutId: transfer.payoutId });
    expect(voucher.payoutId).toBe(transfer.payoutId);
    expect(voucher.fileType).toBe("pdf");
    expect(
      Buffer.from(voucher.content ?? "", "base64")
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
    const pdf = await fetch(voucher.voucherUrl ?? "");
    expect(pdf.headers.get("content-type")).toContain("application/pdf");

    // The money moved: with chargeFlag N the whole sourceAmount (fee included) was debited.
    const [after] = await payout.balances.list({ currency: "USD" });
    expect(after?.frozenBalance).toBe("0.00");
    expect(subtractDecimal(before?.availableBalance ?? "0", after?.availableBalance ?? "0")).toBe(
      "100.00",
    );
  });
});
