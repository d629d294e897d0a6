/**
 * transfers.* against the sandbox: every conditional rule refused before anything is sent, the
 * SWIFT feeBearing rule with and without the method known, retries that keep one requestId and
 * make one payout, exact 64-bit ids, retrieve / voucher / list.
 */
import {
  isInvalidRequestError,
  isRequestValidationError,
  isServerError,
  type RequestValidationError,
} from "@merchantkit/core";
import { type RunningSandbox, startSandbox } from "@merchantkit/sandbox";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { PayoutClient } from "./payout-client";
import {
  bodyOf,
  clientFor,
  individualPayer,
  payoutTruth,
  phWallet,
  usdRemittance,
  usLocalPerson,
  usSwiftCompany,
} from "./testing/fixtures";
import type { TransferCreateParams } from "./types";

let sandbox: RunningSandbox;
let payout: PayoutClient;
let localId: string;
let swiftId: string;
let payerId: string;

beforeAll(async () => {
  sandbox = await startSandbox({ reviewDelayMs: 5_000, settleDelayMs: 2_000 });
  payout = clientFor(sandbox);
  localId = (await payout.beneficiaries.create(usLocalPerson())).beneficiaryId;
  swiftId = (await payout.beneficiaries.create(usSwiftCompany())).beneficiaryId;
  payerId = await payout.payers.create(individualPayer());
  await sandbox.admin.advanceClock(5_000);
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await sandbox.admin.clearFaults();
  await sandbox.admin.clearRequests();
});

async function refused(params: TransferCreateParams, options = {}) {
  const error = await payout.transfers.create(params, options).catch((e: unknown) => e);
  expect(isRequestValidationError(error)).toBe(true);
  return (error as RequestValidationError).issues;
}

describe("transfers.create: rules checked before sending", () => {
  it("refuses each broken conditional rule and sends nothing", async () => {
    const base = { beneficiaryId: localId, beneficiaryPaymentMethod: "LOCAL" as const };
    expect(
      await refused(usdRemittance({ ...base, payerId, payerDetail: individualPayer() as never })),
    ).toEqual([{ path: "payerDetail", message: "must not be sent together with payerId" }]);
    expect(await refused(usdRemittance(base))).toEqual([
      { path: "payerId", message: "or payerDetail is required" },
    ]);
    expect(
      await refused(usdRemittance({ ...base, payerId, chargeFlag: "N", sourceAmount: undefined })),
    ).toEqual([{ path: "sourceAmount", message: "is required when chargeFlag is N" }]);
    expect(
      await refused(usdRemittance({ ...base, payerId, chargeFlag: "Y", sourceAmount: undefined })),
    ).toEqual([{ path: "targetAmount", message: "is required when chargeFlag is Y" }]);
    expect(
      await refused(
        usdRemittance({ beneficiaryId: swiftId, beneficiaryPaymentMethod: "SWIFT", payerId }),
      ),
    ).toEqual([
      { path: "feeBearing", message: "is required when the beneficiary's paymentMethod is SWIFT" },
    ]);
    const tooLong = await refused(usdRemittance({ ...base, payerId, requestId: "r".repeat(33) }));
    expect(tooLong[0]?.path).toBe("requestId");
    const keyTooLong = await refused(usdRemittance({ ...base, payerId }), {
      idempotencyKey: "k".repeat(33),
    });
    expect(keyTooLong[0]?.path).toBe("requestId");
    for (const amount of ["10.001", "0", "-5", "1e3", " 10"]) {
      const issues = await refused(usdRemittance({ ...base, payerId, sourceAmount: amount }));
      expect(issues[0]?.path).toBe("sourceAmount");
    }
    const numeric = await refused(usdRemittance({ ...base, payerId, sourceAmount: 10.5 as never }));
    expect(numeric[0]?.path).toBe("sourceAmount");
    // payerDetail is held to the payer rules too: an individual needs both names.
    const detail = await refused(
      usdRemittance({ ...base, payerDetail: individualPayer({ lastName: undefined }) }),
    );
    expect(detail[0]?.path).toMatch(/lastName/);
    expect(await sandbox.admin.requests()).toEqual([]);
  });

  it("without the method, reads the beneficiary first and still sends no remittance", async () => {
    const issues = await refused(usdRemittance({ beneficiaryId: swiftId, payerId }));
    expect(issues).toEqual([
      { path: "feeBearing", message: "is required when the beneficiary's paymentMethod is SWIFT" },
    ]);
    const seen = await sandbox.admin.requests();
    expect(seen.map((r) => r.path)).toEqual(["/payout/api/v1/beneficiary/queryDetail"]);
  });

  it("does not even read the beneficiary when another rule already fails", async () => {
    await refused(usdRemittance({ beneficiaryId: swiftId }));
    expect(await sandbox.admin.requests()).toEqual([]);
  });

  it("sends a SWIFT payout with feeBearing and no lookup", async () => {
    const transfer = await payout.transfers.create(
      usdRemittance({ beneficiaryId: swiftId, payerId, feeBearing: "OUR" }),
    );
    expect(transfer).toMatchObject({ payoutStatus: "P", feeBearing: "OUR", payoutMethod: "SWIFT" });
    const seen = await sandbox.admin.requests();
    expect(seen.map((r) => r.path)).toEqual(["/payout/api/v1/txn/remittance"]);
    expect(bodyOf(seen[0]).beneficiaryPaymentMethod).toBeUndefined();
  });

  it("looks up a LOCAL beneficiary and sends", async () => {
    const transfer = await payout.transfers.create(
      usdRemittance({ beneficiaryId: localId, payerId }),
    );
    expect(transfer.payoutStatus).toBe("P");
    const seen = await sandbox.admin.requests();
    expect(seen.map((r) => r.path)).toEqual([
      "/payout/api/v1/beneficiary/queryDetail",
      "/payout/api/v1/txn/remittance",
    ]);
  });

  it("sends payerDetail as JSON text", async () => {
    const payer = individualPayer();
    const transfer = await payout.transfers.create(
      usdRemittance({
        beneficiaryId: localId,
        beneficiaryPaymentMethod: "LOCAL",
        payerDetail: payer,
      }),
    );
    expect(transfer.payoutStatus).toBe("P");
    const [sent] = await sandbox.admin.requests();
    const body = bodyOf(sent);
    expect(typeof body.payerDetail).toBe("string");
    expect(JSON.parse(body.payerDetail as string)).toMatchObject({ firstName: "Grace" });
  });
});

describe("transfers.create: retries", () => {
  it("sends the same requestId on every attempt and the sandbox makes one payout", async () => {
    await sandbox.admin.injectFault({
      path: "/payout/api/v1/txn/remittance",
      kind: "http_status",
      status: 503,
      count: 2,
      after: true,
    });
    const { data, response } = await payout.transfers
      .create(usdRemittance({ beneficiaryId: localId, beneficiaryPaymentMethod: "LOCAL", payerId }))
      .withResponse();
    expect(response.attempts).toBe(3);
    expect(response.idempotencyKey).toBe(data.requestId);

    const attempts = await sandbox.admin.requests({ path: "/payout/api/v1/txn/remittance" });
    expect(attempts).toHaveLength(3);
    expect(attempts.map((a) => (a.body as { requestId: string }).requestId)).toEqual([
      data.requestId,
      data.requestId,
      data.requestId,
    ]);
    expect(attempts.map((a) => a.httpStatus)).toEqual([503, 503, 200]);
    expect(attempts[2]?.replayed).toBe(true);

    const { payouts } = await payoutTruth(sandbox);
    const mine = payouts.filter((p) => p.requestId === data.requestId);
    expect(mine).toHaveLength(1);
    expect(mine[0]?.payoutId).toBe(data.payoutId);
  });

  it("keeps a caller's key across retries and reports it on the error when they run out", async () => {
    await sandbox.admin.injectFault({
      path: "/payout/api/v1/txn/remittance",
      kind: "http_status",
      status: 503,
      count: 1,
      after: true,
    });
    const params = usdRemittance({
      beneficiaryId: localId,
      beneficiaryPaymentMethod: "LOCAL",
      payerId,
    });
    const error = await payout.transfers
      .create(params, { idempotencyKey: "order-42", maxRetries: 0 })
      .catch((e: unknown) => e);
    expect(isServerError(error)).toBe(true);
    expect(error).toMatchObject({ idempotencyKey: "order-42", httpStatus: 503 });
    // The merchant retries later with the same key: the first (processed) payout comes back.
    const again = await payout.transfers.create(params, { idempotencyKey: "order-42" });
    expect(again.requestId).toBe("order-42");
    const { payouts } = await payoutTruth(sandbox);
    expect(payouts.filter((p) => p.requestId === "order-42")).toHaveLength(1);
  });
});

describe("transfers: results", () => {
  it("retrieves by either id, refuses a voucher before S, and settles F by the sandbox rule", async () => {
    const transfer = await payout.transfers.create(
      usdRemittance({
        beneficiaryId: localId,
        beneficiaryPaymentMethod: "LOCAL",
        payerId,
        reference: "fail",
      }),
    );
    const byRequest = await payout.transfers.retrieve({ requestId: transfer.requestId });
    const byPayout = await payout.transfers.retrieve({ payoutId: transfer.payoutId });
    expect(byRequest).toEqual(byPayout);
    const voucher = await payout.transfers
      .retrieveVoucher({ payoutId: transfer.payoutId })
      .catch((e: unknown) => e);
    expect(isInvalidRequestError(voucher)).toBe(true);
    expect(voucher).toMatchObject({ respCode: "42203" });

    await sandbox.admin.advanceClock(2_000);
    const failed = await payout.transfers.retrieve({ payoutId: transfer.payoutId });
    expect(failed).toMatchObject({ payoutStatus: "F", errorCode: "PAYOUT_REJECTED" });
  });

  it("refuses a lookup without requestId or payoutId before sending", async () => {
    const error = await payout.transfers.retrieve({}).catch((e: unknown) => e);
    expect(isRequestValidationError(error)).toBe(true);
    expect((error as RequestValidationError).issues).toEqual([
      { path: "requestId", message: "or payoutId is required" },
    ]);
    expect(await sandbox.admin.requests()).toEqual([]);
  });

  it("lists a window's payouts page by page", async () => {
    const wallet = (await payout.beneficiaries.create(phWallet())).beneficiaryId;
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      const t = await payout.transfers.create({
        beneficiaryId: wallet,
        beneficiaryPaymentMethod: "E_WALLET",
        payerId,
        sourceCurrency: "USD",
        targetCurrency: "PHP",
        transactionPurpose: "family support",
        chargeFlag: "Y",
        targetAmount: "500.00",
      });
      made.push(t.payoutId);
    }
    const window = {
      createTimeStartTime: "2000-01-01 00:00:00",
      createTimeEndTime: "2100-01-01 00:00:00",
    };
    const all: string[] = [];
    for await (const t of payout.transfers.list({ ...window, size: 2 })) all.push(t.payoutId);
    expect(all).toEqual(expect.arrayContaining(made));
    expect(new Set(all).size).toBe(all.length);
    const phpOnly = await payout.transfers
      .list({ ...window, payoutMethod: "E_WALLET", size: 10 })
      .toArray({ limit: 100 });
    expect(phpOnly.map((t) => t.payoutId)).toEqual(made);
    expect(phpOnly[0]).toMatchObject({
      targetCurrency: "PHP",
      targetAmount: "500.00",
      chargeFlag: "Y",
    });

    const backwards = await payout.transfers
      .list({
        createTimeStartTime: "2100-01-01 00:00:00",
        createTimeEndTime: "2000-01-01 00:00:00",
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect((backwards as RequestValidationError).issues[0]).toEqual({
      path: "createTimeEndTime",
      message: "must not be before createTimeStartTime",
    });
  });
});

describe("64-bit ids", () => {
  it("keeps payoutId and payerId digit for digit, also when the wire carries bare numbers", async () => {
    // The sandbox sends payout ids as strings (as the contract shows); the live service may send
    // bare 64-bit numbers (provider-notes §6). This fetch turns them into numbers on the way in.
    let bare = 0;
    const numbersOnWire: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      const text = (await res.text()).replace(
        /"(payoutId|payerId|beneficiaryId|data)":"(\d{16,})"/g,
        (_, key: string, digits: string) => {
          bare++;
          return `"${key}":${digits}`;
        },
      );
      return new Response(text, { status: res.status, headers: res.headers });
    };
    const raw = clientFor(sandbox, { fetch: numbersOnWire });
    const id = await raw.payers.create(individualPayer());
    expect(id).toMatch(/^\d{19}$/);
    const { payers } = await payoutTruth(sandbox);
    expect(payers.map((p) => p.id)).toContain(id);

    const transfer = await raw.transfers.create(
      usdRemittance({ beneficiaryId: localId, beneficiaryPaymentMethod: "LOCAL", payerId: id }),
    );
    expect(transfer.payerId).toBe(id);
    expect(BigInt(transfer.payoutId) > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
    const { payouts } = await payoutTruth(sandbox);
    const stored = payouts.find((p) => p.payoutId === transfer.payoutId);
    expect(stored?.payerId).toBe(id);
    const [sent] = await sandbox.admin.requests({ path: "/payout/api/v1/txn/remittance" });
    expect(bodyOf(sent).payerId).toBe(id);
    // addPayer's data, then payoutId, payerId and beneficiaryId of the transfer.
    expect(bare).toBe(4);
  });
});
