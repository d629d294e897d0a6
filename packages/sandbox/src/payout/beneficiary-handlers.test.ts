import {
  beneficiaryAdd,
  beneficiaryEdit,
  beneficiaryQueryDetail,
  beneficiaryQueryList,
} from "@merchantkit/contract";
import { describe, expect, it } from "vitest";
import { endpointCaller, errorOf, testRuntime } from "../testing/area-runtime";
import { phWallet, usLocalPerson } from "../testing/payout-fixtures";
import { createPayoutArea } from "./payout-area";

function setup() {
  const t = testRuntime({ reviewDelayMs: 5_000 });
  const area = createPayoutArea(t.runtime);
  return { ...t, area, call: endpointCaller(area, t.runtime) };
}

describe("beneficiary/add", () => {
  it("starts a reviewed route WAITING, PROCESS halfway, PASS after reviewDelayMs", () => {
    const { call, advance } = setup();
    const added = call(beneficiaryAdd, usLocalPerson());
    expect(added.payeeStatus).toBe("WAITING");
    expect(added.beneficiaryId).toMatch(/^\d{19}$/);
    expect(BigInt(added.beneficiaryId) > 2n ** 53n).toBe(true);
    const detail = () => call(beneficiaryQueryDetail, { beneficiaryId: added.beneficiaryId });
    advance(2_499);
    expect(detail().payeeStatus).toBe("WAITING");
    advance(1);
    expect(detail().payeeStatus).toBe("PROCESS");
    advance(2_499);
    expect(detail().payeeStatus).toBe("PROCESS");
    advance(1);
    const passed = detail();
    expect(passed).toMatchObject({
      payeeStatus: "PASS",
      merchantNo: "M1000001",
      merchantRefId: "user-1",
      bankCountry: "US",
      paymentMethod: "LOCAL",
      receiverInfo: { firstName: "Ada", lastName: "Lovelace" },
      accountInfomation: { cardNumber: "000123456789" },
      createTime: "2026-06-22 10:00:00",
      updateTime: "2026-06-22 10:00:05",
    });
    expect(passed.rejectReason).toBeUndefined();
  });

  it("rejects by the documented rules: lastName REJECT or merchantRefId reject-*", () => {
    const { call, advance } = setup();
    const byName = call(
      beneficiaryAdd,
      usLocalPerson({ receiverInfo: { firstName: "A", lastName: "reject" } }),
    );
    const byRef = call(
      beneficiaryAdd,
      usLocalPerson({
        merchantRefId: "reject-7",
        accountInfomation: { ...usLocalPerson().accountInfomation, cardNumber: "111" },
      }),
    );
    advance(5_000);
    const a = call(beneficiaryQueryDetail, { beneficiaryId: byName.beneficiaryId });
    const b = call(beneficiaryQueryDetail, { beneficiaryId: byRef.beneficiaryId });
    expect(a.payeeStatus).toBe("REJECT");
    expect(a.rejectReason).toMatch(/lastName REJECT/);
    expect(b.payeeStatus).toBe("REJECT");
    expect(b.rejectReason).toMatch(/merchantRefId/);
  });

  it("E_WALLET needs no review: UNNECESSARY at once and for good", () => {
    const { call, advance } = setup();
    const added = call(beneficiaryAdd, phWallet());
    expect(added.payeeStatus).toBe("UNNECESSARY");
    advance(60_000);
    expect(call(beneficiaryQueryDetail, { beneficiaryId: added.beneficiaryId }).payeeStatus).toBe(
      "UNNECESSARY",
    );
  });

  it("names every missing Y field (40000) and refuses a route that does not exist (42201)", () => {
    const { call } = setup();
    const missing = errorOf(() =>
      call(
        beneficiaryAdd,
        usLocalPerson({
          receiverInfo: { firstName: "Ada", lastName: "  " },
          accountInfomation: { cardNumber: "1", accountType: "0", bankHolderName: "Ada" },
        }),
      ),
    );
    expect(missing).toEqual({
      code: "40000",
      message:
        "receiverInfo.lastName, accountInfomation.branchCode are required for US/USD LOCAL (entityType 1)",
    });
    expect(
      errorOf(() => call(beneficiaryAdd, usLocalPerson({ paymentMethod: "CASH_PICKUP" }))).code,
    ).toBe("42201");
  });

  it("answers a duplicate with 40901 and a terse message; queryList by cardNumber finds the original", () => {
    const { call } = setup();
    const first = call(beneficiaryAdd, usLocalPerson());
    const dup = errorOf(() =>
      call(beneficiaryAdd, usLocalPerson({ merchantRefId: "someone-else" })),
    );
    expect(dup).toEqual({ code: "40901", message: "beneficiary already exists" });
    // Another currency/country or another merchant is not a duplicate.
    call(beneficiaryAdd, usLocalPerson({ merchantNo: "M1000002" }));
    const found = call(beneficiaryQueryList, { cardNumber: "000123456789", size: 10, current: 1 });
    expect(found.total).toBe(1);
    expect(found.records[0]?.beneficiaryId).toBe(first.beneficiaryId);
  });
});

describe("beneficiary/edit", () => {
  it("keeps the id, updates the fields and sends a PASS beneficiary back to review", () => {
    const { call, advance } = setup();
    const { beneficiaryId } = call(beneficiaryAdd, usLocalPerson());
    advance(5_000);
    expect(call(beneficiaryQueryDetail, { beneficiaryId }).payeeStatus).toBe("PASS");
    advance(1_000);
    const edited = call(beneficiaryEdit, {
      ...usLocalPerson({ address: { ...usLocalPerson().address, city: "Boston", state: "MA" } }),
      beneficiaryId,
    });
    expect(edited).toEqual({ beneficiaryId, payeeStatus: "WAITING" });
    expect(call(beneficiaryQueryDetail, { beneficiaryId })).toMatchObject({
      payeeStatus: "WAITING",
      address: { city: "Boston" },
      updateTime: "2026-06-22 10:00:06",
    });
    advance(5_000);
    expect(call(beneficiaryQueryDetail, { beneficiaryId }).payeeStatus).toBe("PASS");
  });

  it("turns a REJECT into WAITING, and an edit fixing the name passes", () => {
    const { call, advance } = setup();
    const { beneficiaryId } = call(
      beneficiaryAdd,
      usLocalPerson({ receiverInfo: { firstName: "A", lastName: "REJECT" } }),
    );
    advance(5_000);
    expect(call(beneficiaryQueryDetail, { beneficiaryId }).payeeStatus).toBe("REJECT");
    expect(call(beneficiaryEdit, { ...usLocalPerson(), beneficiaryId }).payeeStatus).toBe(
      "WAITING",
    );
    advance(5_000);
    const detail = call(beneficiaryQueryDetail, { beneficiaryId });
    expect(detail.payeeStatus).toBe("PASS");
    expect(detail.rejectReason).toBeUndefined();
  });

  it("an edit during review restarts it: the earlier schedule does nothing", () => {
    const { call, advance } = setup();
    const { beneficiaryId } = call(beneficiaryAdd, usLocalPerson());
    advance(4_000);
    expect(call(beneficiaryQueryDetail, { beneficiaryId }).payeeStatus).toBe("PROCESS");
    call(beneficiaryEdit, { ...usLocalPerson(), beneficiaryId });
    advance(1_000); // the first review's end: ignored
    expect(call(beneficiaryQueryDetail, { beneficiaryId }).payeeStatus).toBe("WAITING");
    advance(4_000);
    expect(call(beneficiaryQueryDetail, { beneficiaryId }).payeeStatus).toBe("PASS");
  });

  it("unknown id → 40400; a card number taken by another beneficiary → 40901; its own is fine", () => {
    const { call } = setup();
    const a = call(beneficiaryAdd, usLocalPerson());
    call(
      beneficiaryAdd,
      usLocalPerson({
        accountInfomation: { ...usLocalPerson().accountInfomation, cardNumber: "222" },
      }),
    );
    expect(
      errorOf(() =>
        call(beneficiaryEdit, { ...usLocalPerson(), beneficiaryId: "1953712585351499999" }),
      ).code,
    ).toBe("40400");
    expect(
      errorOf(() =>
        call(beneficiaryEdit, {
          ...usLocalPerson({
            accountInfomation: { ...usLocalPerson().accountInfomation, cardNumber: "222" },
          }),
          beneficiaryId: a.beneficiaryId,
        }),
      ).code,
    ).toBe("40901");
    expect(
      call(beneficiaryEdit, { ...usLocalPerson(), beneficiaryId: a.beneficiaryId }).beneficiaryId,
    ).toBe(a.beneficiaryId);
  });
});

describe("queryDetail and queryList", () => {
  it("queryDetail of an unknown id or another merchant's beneficiary → 40400", () => {
    const { call } = setup();
    const other = call(beneficiaryAdd, usLocalPerson({ merchantNo: "M1000002" }));
    expect(
      errorOf(() => call(beneficiaryQueryDetail, { beneficiaryId: other.beneficiaryId })).code,
    ).toBe("40400");
    expect(
      call(beneficiaryQueryDetail, { beneficiaryId: other.beneficiaryId, merchantNo: "M1000002" })
        .merchantNo,
    ).toBe("M1000002");
  });

  it("filters by status and id, and pages in creation order", () => {
    const { call, advance } = setup();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(
        call(
          beneficiaryAdd,
          usLocalPerson({
            accountInfomation: { ...usLocalPerson().accountInfomation, cardNumber: `c${i}` },
          }),
        ).beneficiaryId,
      );
    }
    const wallet = call(beneficiaryAdd, phWallet()).beneficiaryId;
    advance(5_000);
    const page2 = call(beneficiaryQueryList, { size: 2, current: 2 });
    expect(page2).toMatchObject({ total: 6, size: 2, current: 2 });
    expect(page2.records.map((r) => r.beneficiaryId)).toEqual([ids[2], ids[3]]);
    const last = call(beneficiaryQueryList, { size: 4, current: 2 });
    expect(last.records.map((r) => r.beneficiaryId)).toEqual([ids[4], wallet]);
    expect(call(beneficiaryQueryList, { size: 4, current: 3 }).records).toEqual([]);
    const unnecessary = call(beneficiaryQueryList, {
      payeeStatus: "UNNECESSARY",
      size: 10,
      current: 1,
    });
    expect(unnecessary.records.map((r) => r.beneficiaryId)).toEqual([wallet]);
    expect(call(beneficiaryQueryList, { payeeStatus: "PASS", size: 10, current: 1 }).total).toBe(5);
    expect(
      call(beneficiaryQueryList, { beneficiaryId: ids[1], size: 10, current: 1 }).records,
    ).toHaveLength(1);
  });
});
