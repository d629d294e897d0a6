import { accountGlobalGetDetail, accountTransactionsServiceQuery } from "@merchantkit/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSandbox, startSandbox } from "../start-sandbox";
import { clientFor, TEST_NOW } from "../testing/sandbox-client";
import { iban } from "./global-accounts";

describe("the account area over HTTP", () => {
  let sandbox: RunningSandbox;
  let api: ReturnType<typeof clientFor>;
  let accounts: Record<string, string>[];
  let n = 0;

  beforeAll(async () => {
    sandbox = await startSandbox();
    api = clientFor(sandbox);
    await api.admin("POST", "/clock/freeze", { at: TEST_NOW });
    accounts = (await api.admin("GET", "/account/global-accounts")).globalAccounts;
  });
  afterAll(() => sandbox.close());

  const requestId = () => `req-${++n}`;
  const post = (body: Record<string, unknown>) =>
    api.admin("POST", "/account/postings", { currency: "USD", ...body });
  const accountOf = (merchantNo: string, currency: string) =>
    accounts.find(
      (a) => a.merchantNo === merchantNo && a.supportCurrencies?.includes(currency),
    ) as Record<string, string>;

  it("lists the postings of each serviceId in request order, once each, unknown ones adding nothing", async () => {
    const first = await post({
      direction: "credit",
      amount: "100.00",
      serviceId: "1001",
      businessType: "TOP_UP",
    });
    await post({
      direction: "debit",
      amount: "0.10",
      serviceId: "1001",
      businessType: "FEE",
      remark: "wire fee",
    });
    await post({
      direction: "debit",
      amount: "25.50",
      serviceId: "1002",
      externalOrderId: "order-7",
    });
    expect(first.transaction).toMatchObject({ serviceId: "1001", amount: "100.00" });
    const { list } = await api.ok(accountTransactionsServiceQuery, {
      requestId: requestId(),
      serviceIds: ["1002", "1953712585399999999", "1001", "1002"],
    });
    expect(list.map((t) => [t.serviceId, t.amount, t.businessType])).toEqual([
      ["1002", "-25.50", "ADJUSTMENT"],
      ["1001", "100.00", "TOP_UP"],
      ["1001", "-0.10", "FEE"],
    ]);
    expect(list[0]).toMatchObject({
      currency: "USD",
      balanceType: "AVAILABLE",
      externalOrderId: "order-7",
      balanceUpdDate: new Date(TEST_NOW).toISOString(),
    });
    expect(list[0]?.acntTxnId).toMatch(/^\d{19}$/);
    expect(list[2]?.remark).toBe("wire fee");
    expect(list[1]?.remark).toBeUndefined();
    const { balances } = await api.admin("GET", "/account/balances");
    expect(balances.USD).toBe("1000074.40");
  });

  it("answers a child merchant (onBehalfOf) from its own account: never the parent's movements", async () => {
    const { list } = await api.ok(accountTransactionsServiceQuery, {
      requestId: requestId(),
      onBehalfOf: "M1000002",
      serviceIds: ["1001"],
    });
    expect(list).toEqual([]);
  });

  it("reads a Global Account by id, by number, or both naming the same account", async () => {
    const usd = accountOf("M1000001", "USD");
    expect(usd.globalAccountId).toMatch(/^\d{19}$/);
    const byId = await api.ok(accountGlobalGetDetail, {
      requestId: requestId(),
      globalAccountId: usd.globalAccountId,
    });
    expect(byId).toMatchObject({
      globalAccountId: usd.globalAccountId,
      globalAccountNo: usd.globalAccountNo,
      customerId: "M1000001",
      status: "Active",
      supportCurrencies: ["USD"],
      bizTypeList: ["COLLECTION", "PAYOUT"],
    });
    const byNo = await api.ok(accountGlobalGetDetail, {
      requestId: requestId(),
      globalAccountNo: usd.globalAccountNo,
    });
    expect(byNo).toEqual(byId);
    const both = await api.ok(accountGlobalGetDetail, {
      requestId: requestId(),
      globalAccountId: usd.globalAccountId,
      globalAccountNo: usd.globalAccountNo,
    });
    expect(both).toEqual(byId);
    const eur = await api.ok(accountGlobalGetDetail, {
      requestId: requestId(),
      globalAccountId: accountOf("M1000001", "EUR").globalAccountId,
    });
    // A valid IBAN: moving the first four characters to the end, mod 97 is 1.
    const text = eur.iban as string;
    const digits = (text.slice(4) + text.slice(0, 4)).replace(/[A-Z]/g, (c) =>
      String(c.charCodeAt(0) - 55),
    );
    expect(BigInt(digits) % 97n).toBe(1n);
    expect(iban("GB", "WEST12345698765432")).toBe("GB82WEST12345698765432");
  });

  it("answers 40004 for an unknown account and 40001 when the two ids disagree", async () => {
    const unknownId = await api.call(accountGlobalGetDetail, {
      requestId: requestId(),
      globalAccountId: "42",
    });
    expect(unknownId.respCode).toBe("40004");
    expect(unknownId.error).toMatchObject({ code: "40004" });
    const unknownNo = await api.call(accountGlobalGetDetail, {
      requestId: requestId(),
      globalAccountNo: "GA0",
    });
    expect(unknownNo.respCode).toBe("40004");
    const mixed = await api.call(accountGlobalGetDetail, {
      requestId: requestId(),
      globalAccountId: accountOf("M1000001", "USD").globalAccountId,
      globalAccountNo: accountOf("M1000001", "EUR").globalAccountNo,
    });
    expect(mixed.respCode).toBe("40001");
    expect(mixed.error).toMatchObject({ code: "40001", details: [{ field: "globalAccountNo" }] });
  });

  it("shows an account only to its own customer: 40009 otherwise, onBehalfOf for a child", async () => {
    const child = accountOf("M1000002", "USD");
    const parentAsks = await api.call(accountGlobalGetDetail, {
      requestId: requestId(),
      globalAccountId: child.globalAccountId,
    });
    expect(parentAsks.respCode).toBe("40009");
    const forChild = await api.call(accountGlobalGetDetail, {
      requestId: requestId(),
      onBehalfOf: "M1000002",
      globalAccountId: child.globalAccountId,
    });
    expect(forChild.data?.customerId).toBe("M1000002");
    const childAsksParent = await api.call(accountGlobalGetDetail, {
      requestId: requestId(),
      onBehalfOf: "M1000002",
      globalAccountNo: accountOf("M1000001", "USD").globalAccountNo,
    });
    expect(childAsksParent.respCode).toBe("40009");
    const stranger = await api.admin("POST", "/account/global-accounts", {
      merchantNo: "M7777777",
      currency: "SGD",
    });
    expect(stranger.globalAccount).toMatchObject({
      customerId: "M7777777",
      bankCountry: "SG",
      status: "Active",
    });
    const other = await api.call(accountGlobalGetDetail, {
      requestId: requestId(),
      globalAccountId: stranger.globalAccount.globalAccountId,
    });
    expect(other.respCode).toBe("40009");
  });

  it("refuses bad admin postings with a 400 naming the field", async () => {
    await expect(post({ direction: "credit", amount: "-1" })).rejects.toMatchObject({
      status: 400,
    });
    await expect(post({ direction: "sideways", amount: "1" })).rejects.toMatchObject({
      status: 400,
    });
    await expect(
      post({ direction: "credit", amount: "1", serviceId: "abc" }),
    ).rejects.toMatchObject({ status: 400 });
  });
});
