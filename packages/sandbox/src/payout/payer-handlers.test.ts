import { acctAddPayer, acctQueryPayer } from "@merchantkit/contract";
import { describe, expect, it } from "vitest";
import { endpointCaller, errorOf, testRuntime } from "../testing/area-runtime";
import { individualPayer } from "../testing/payout-fixtures";
import { createPayoutArea } from "./payout-area";

function setup() {
  const t = testRuntime();
  const area = createPayoutArea(t.runtime);
  return { ...t, area, call: endpointCaller(area, t.runtime) };
}

describe("acct/addPayer and acct/queryPayer", () => {
  it("answers a 64-bit payer id and stores the payer's fields", () => {
    const { call, area } = setup();
    const id = call(acctAddPayer, individualPayer());
    expect(id).toMatch(/^\d{19}$/);
    const page = call(acctQueryPayer, { id, size: 10, current: 1 });
    expect(page).toMatchObject({ total: 1, size: 10, current: 1 });
    expect(page.records[0]).toEqual({
      id,
      merchantNo: "M1000001",
      subEntityType: "1",
      country: "SG",
      firstName: "Grace",
      lastName: "Hopper",
      email: "grace@example.com",
      idType: "1",
      idNumber: "E1234567",
      createTime: "2026-06-22 10:00:00",
    });
    expect((area.dump().payers as unknown[]).length).toBe(1);
  });

  it("size -1 answers every record on one page; other sizes page", () => {
    const { call } = setup();
    const ids = Array.from({ length: 7 }, (_, i) =>
      call(acctAddPayer, individualPayer({ lastName: `L${i}` })),
    );
    const all = call(acctQueryPayer, { size: -1, current: 3 });
    expect(all).toMatchObject({ total: 7, size: -1, current: 1 });
    expect(all.records.map((r) => r.id)).toEqual(ids);
    const page = call(acctQueryPayer, { size: 3, current: 3 });
    expect(page.records.map((r) => r.id)).toEqual([ids[6]]);
    expect(page.total).toBe(7);
  });

  it("filters exactly and sorts by a column either way", () => {
    const { call } = setup();
    const b = call(acctAddPayer, individualPayer({ lastName: "Babbage", country: "GB" }));
    const a = call(acctAddPayer, individualPayer({ lastName: "Anning", country: "GB" }));
    const co = call(
      acctAddPayer,
      individualPayer({
        subEntityType: "0",
        firstName: undefined,
        lastName: undefined,
        companyNameEn: "Engines Ltd",
        country: "GB",
        registerNo: "R-1",
      }),
    );
    call(acctAddPayer, individualPayer({ lastName: "Curie", country: "FR" }));
    const gb = call(acctQueryPayer, { country: "GB", size: 10, current: 1 });
    expect(gb.records.map((r) => r.id)).toEqual([b, a, co]);
    const byName = call(acctQueryPayer, {
      country: "GB",
      subEntityType: "1",
      column: "lastName",
      size: 10,
      current: 1,
    });
    expect(byName.records.map((r) => r.id)).toEqual([a, b]);
    const desc = call(acctQueryPayer, {
      subEntityType: "1",
      column: "lastName",
      asc: false,
      size: 10,
      current: 1,
    });
    expect(desc.records.map((r) => r.lastName)).toEqual(["Curie", "Babbage", "Anning"]);
    expect(
      call(acctQueryPayer, { registerNo: "R-1", size: 10, current: 1 }).records.map((r) => r.id),
    ).toEqual([co]);
    expect(call(acctQueryPayer, { lastName: "Nobody", size: 10, current: 1 })).toMatchObject({
      total: 0,
      records: [],
    });
    expect(
      errorOf(() => call(acctQueryPayer, { column: "password", size: 10, current: 1 })).code,
    ).toBe("40000");
  });

  it("shows a merchant only its own payers", () => {
    const { call } = setup();
    call(acctAddPayer, individualPayer());
    const child = call(acctAddPayer, { ...individualPayer(), merchantNo: "M1000002" });
    const page = call(acctQueryPayer, { merchantNo: "M1000002", size: -1, current: 1 });
    expect(page.records.map((r) => r.id)).toEqual([child]);
    expect(page.records[0]?.merchantNo).toBe("M1000002");
  });
});
