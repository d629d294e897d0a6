/** beneficiaries.* against the sandbox: create, update in place, retrieve, list, duplicates. */
import { isDuplicateError, isNotFoundError, isRequestValidationError } from "@merchantkit/core";
import { type RunningSandbox, startSandbox } from "@merchantkit/sandbox";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { PayoutClient } from "./payout-client";
import { bodyOf, clientFor, phWallet, uniqueCard, usLocalPerson } from "./testing/fixtures";

let sandbox: RunningSandbox;
let payout: PayoutClient;

beforeAll(async () => {
  sandbox = await startSandbox({ reviewDelayMs: 5_000, settleDelayMs: 2_000 });
  payout = clientFor(sandbox);
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.admin.clearRequests());

describe("beneficiaries", () => {
  it("creates one with its parts sent as JSON text and read back as objects", async () => {
    const draft = usLocalPerson();
    const { beneficiaryId, payeeStatus } = await payout.beneficiaries.create(draft);
    expect(payeeStatus).toBe("WAITING");
    // 64-bit ids beyond 2^53 arrive as exact digit strings.
    expect(beneficiaryId).toMatch(/^\d+$/);
    expect(BigInt(beneficiaryId) > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);

    const [sent] = await sandbox.admin.requests({ path: "/payout/api/v1/beneficiary/add" });
    const body = bodyOf(sent);
    expect(typeof body.receiverInfo).toBe("string");
    expect(JSON.parse(body.receiverInfo as string)).toEqual(draft.receiverInfo);
    expect(typeof body.accountInfomation).toBe("string");

    const read = await payout.beneficiaries.retrieve({ beneficiaryId });
    expect(read).toMatchObject({
      beneficiaryId,
      payeeStatus: "WAITING",
      bankCountry: "US",
      receiverInfo: draft.receiverInfo,
      address: draft.address,
    });
    expect(read.accountInfomation?.cardNumber).toBe(draft.accountInfomation.cardNumber);
  });

  it("updates in place: the same id, new fields, back to review", async () => {
    const { beneficiaryId } = await payout.beneficiaries.create(usLocalPerson());
    await sandbox.admin.advanceClock(5_000);
    expect((await payout.beneficiaries.retrieve({ beneficiaryId })).payeeStatus).toBe("PASS");

    const changed = usLocalPerson({ receiverInfo: { firstName: "Augusta", lastName: "King" } });
    const edited = await payout.beneficiaries.update({ ...changed, beneficiaryId });
    expect(edited).toEqual({ beneficiaryId, payeeStatus: "WAITING" });
    const read = await payout.beneficiaries.retrieve({ beneficiaryId });
    expect(read.receiverInfo).toEqual({ firstName: "Augusta", lastName: "King" });
    expect(read.accountInfomation?.cardNumber).toBe(changed.accountInfomation.cardNumber);
  });

  it("reports a duplicate as a DuplicateError and finds the existing one by card number", async () => {
    const draft = usLocalPerson();
    const first = await payout.beneficiaries.create(draft);
    const error = await payout.beneficiaries
      .create({ ...draft, merchantRefId: "user-1-again" })
      .catch((e: unknown) => e);
    expect(isDuplicateError(error)).toBe(true);
    expect(error).toMatchObject({ respCode: "40901", path: "/api/v1/beneficiary/add" });

    const cardNumber = draft.accountInfomation.cardNumber as string;
    const found = await payout.beneficiaries.findByCardNumber(cardNumber);
    expect(found.map((b) => b.beneficiaryId)).toEqual([first.beneficiaryId]);
    const narrowed = await payout.beneficiaries.findByCardNumber({
      cardNumber,
      bankCountry: "US",
      payoutCurrency: "USD",
    });
    expect(narrowed.map((b) => b.beneficiaryId)).toEqual([first.beneficiaryId]);
    expect(await payout.beneficiaries.findByCardNumber({ cardNumber, bankCountry: "GB" })).toEqual(
      [],
    );
    expect(await payout.beneficiaries.findByCardNumber(uniqueCard())).toEqual([]);
  });

  it("refuses an empty card number for findByCardNumber without sending", async () => {
    const error = await payout.beneficiaries.findByCardNumber(" ").catch((e: unknown) => e);
    expect(isRequestValidationError(error)).toBe(true);
    expect(await sandbox.admin.requests()).toEqual([]);
  });

  it("lists every page with for await, neither skipping nor repeating", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { beneficiaryId, payeeStatus } = await payout.beneficiaries.create(phWallet());
      expect(payeeStatus).toBe("UNNECESSARY");
      ids.push(beneficiaryId);
    }
    await sandbox.admin.clearRequests();
    const seen: string[] = [];
    for await (const b of payout.beneficiaries.list({ payeeStatus: "UNNECESSARY", size: 2 })) {
      seen.push(b.beneficiaryId);
    }
    expect(seen).toEqual(ids);
    const sent = await sandbox.admin.requests({ path: "/payout/api/v1/beneficiary/queryList" });
    expect(sent.map((r) => (r.body as { current: number }).current)).toEqual([1, 2, 3]);

    const page = await payout.beneficiaries.list({
      payeeStatus: "UNNECESSARY",
      size: 2,
      current: 2,
    });
    expect(page).toMatchObject({ pageNum: 2, pageSize: 2, totalRecords: 5, hasMore: true });
    expect(page.records.map((b) => b.beneficiaryId)).toEqual(ids.slice(2, 4));
    const pages: number[] = [];
    for await (const p of payout.beneficiaries
      .list({ payeeStatus: "UNNECESSARY", size: 2 })
      .pages()) {
      pages.push(p.records.length);
    }
    expect(pages).toEqual([2, 2, 1]);
    const first3 = await payout.beneficiaries.list({ size: 2 }).toArray({ limit: 3 });
    expect(first3).toHaveLength(3);
  });

  it("names a missing beneficiary as NotFound", async () => {
    const error = await payout.beneficiaries
      .retrieve({ beneficiaryId: "1953712585351499776" })
      .catch((e: unknown) => e);
    expect(isNotFoundError(error)).toBe(true);
  });

  it("rejects a broken beneficiary before sending", async () => {
    const cases = [
      { ...usLocalPerson(), bankCountry: "usa" },
      { ...usLocalPerson(), accountInfomation: { cardNumber: "1", accountType: "9" } },
      { ...usLocalPerson(), reciverInfo: {} },
    ];
    for (const params of cases) {
      const error = await payout.beneficiaries.create(params as never).catch((e: unknown) => e);
      expect(isRequestValidationError(error)).toBe(true);
    }
    expect(await sandbox.admin.requests()).toEqual([]);
  });
});
