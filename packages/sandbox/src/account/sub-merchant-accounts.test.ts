import { accountGlobalGetDetail, accountTransactionsServiceQuery } from "@merchantkit/contract";
import { addDecimal, compareDecimal, sumDecimals } from "@merchantkit/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { movementsByMerchant, type TruthAccountTransaction } from "../ledger/ground-truth";
import { subMerchantNos } from "../runtime/config";
import { type RunningSandbox, startSandbox } from "../start-sandbox";
import { clientFor, TEST_NOW } from "../testing/sandbox-client";

const PARENT = "M1000001";
const CHILDREN = subMerchantNos(3);
const STRANGER = "M7777777";
const GENERATE = { seed: 5, movements: 40, days: 10 };

async function platform(): Promise<RunningSandbox> {
  const sandbox = await startSandbox({ children: CHILDREN });
  await clientFor(sandbox).admin("POST", "/clock/freeze", { at: TEST_NOW });
  return sandbox;
}

/** The serviceIds of `movements`, each once, in first-posting order. */
function serviceIdsOf(movements: readonly TruthAccountTransaction[]): string[] {
  return [...new Set(movements.map((m) => m.serviceId))];
}

describe("a platform's sub-merchants in the account area", () => {
  let sandbox: RunningSandbox;
  let api: ReturnType<typeof clientFor>;
  let owned: Map<string, readonly TruthAccountTransaction[]>;
  let n = 0;
  const requestId = () => `sub-${++n}`;

  /** The account query for `serviceIds` in batches of 100 (the contract's limit). */
  async function query(serviceIds: readonly string[], onBehalfOf?: string) {
    const list = [];
    for (let i = 0; i < serviceIds.length; i += 100) {
      const answer = await api.ok(accountTransactionsServiceQuery, {
        requestId: requestId(),
        ...(onBehalfOf ? { onBehalfOf } : {}),
        serviceIds: serviceIds.slice(i, i + 100),
      });
      list.push(...answer.list);
    }
    return list;
  }

  beforeAll(async () => {
    sandbox = await platform();
    api = clientFor(sandbox);
    await api.admin("POST", "/account/postings", {
      direction: "credit",
      currency: "USD",
      amount: "10.00",
      serviceId: "42",
    });
    const { generated } = await api.admin("POST", "/account/generate", GENERATE);
    expect(Object.keys(generated.subMerchants)).toEqual(CHILDREN);
    owned = movementsByMerchant(await sandbox.admin.state());
  });
  afterAll(() => sandbox.close());

  it("gives each configured sub-merchant movements of its own, under serviceIds no one else has", () => {
    expect([...owned.keys()]).toEqual([PARENT, ...CHILDREN]);
    const holder = new Map<string, string>();
    for (const [merchantNo, movements] of owned) {
      for (const serviceId of serviceIdsOf(movements)) {
        expect(holder.get(serviceId), serviceId).toBeUndefined();
        holder.set(serviceId, merchantNo);
      }
    }
    expect(owned.get(PARENT)?.map((m) => m.serviceId)).toEqual(["42"]);
    for (const child of CHILDREN) {
      const movements = owned.get(child) ?? [];
      const types = new Set(movements.map((m) => m.businessType));
      for (const type of ["COLLECTION", "PAYOUT", "FEE"]) expect(types, child).toContain(type);
      expect(serviceIdsOf(movements).length).toBeGreaterThanOrEqual(GENERATE.movements);
      for (const m of movements) {
        expect(m.balanceUpdDate >= new Date(TEST_NOW - 10 * 86_400_000).toISOString()).toBe(true);
        expect(m.balanceUpdDate <= new Date(TEST_NOW).toISOString()).toBe(true);
      }
    }
  });

  it("answers onBehalfOf a sub-merchant with its own movements only, and the parent with none of them", async () => {
    for (const child of CHILDREN) {
      const movements = owned.get(child) ?? [];
      const ids = serviceIdsOf(movements);
      const list = await query(ids, child);
      expect(list.map((t) => t.acntTxnId).sort()).toEqual(movements.map((m) => m.acntTxnId).sort());
      expect(await query(ids)).toEqual([]);
      const sibling = CHILDREN.find((c) => c !== child) as string;
      expect(await query(ids, sibling)).toEqual([]);
    }
    expect(await query(["42"], CHILDREN[0])).toEqual([]);
    expect((await query(["42"])).map((t) => t.amount)).toEqual(["10.00"]);
  });

  it("ties each sub-merchant's balances to its movements to the cent, never below zero", async () => {
    for (const child of CHILDREN) {
      const movements = owned.get(child) ?? [];
      const { balances } = await api.admin("GET", `/account/balances?merchantNo=${child}`);
      const currencies = [...new Set(movements.map((m) => m.currency))].sort();
      expect(Object.keys(balances).sort()).toEqual(currencies);
      for (const currency of currencies) {
        const amounts = movements.filter((m) => m.currency === currency).map((m) => m.amount);
        expect(compareDecimal(balances[currency], sumDecimals(amounts)), currency).toBe(0);
      }
      // In posting order, the balance after each serviceId (a payout leaves with its fee) holds.
      const running = new Map<string, string>();
      for (const [i, m] of movements.entries()) {
        running.set(m.currency, addDecimal(running.get(m.currency) ?? "0", m.amount));
        if (movements[i + 1]?.serviceId === m.serviceId) continue;
        expect(
          compareDecimal(running.get(m.currency) as string, "0"),
          m.serviceId,
        ).toBeGreaterThanOrEqual(0);
      }
    }
  });

  it("reads a sub-merchant's Global Accounts with onBehalfOf, and refuses them to a sibling (40009)", async () => {
    const { globalAccounts } = await api.admin("GET", "/account/global-accounts");
    for (const child of CHILDREN) {
      const own = globalAccounts.filter((a: { merchantNo: string }) => a.merchantNo === child);
      const collected = new Set(
        (owned.get(child) ?? [])
          .filter((m) => m.businessType === "COLLECTION")
          .map((m) => m.currency),
      );
      // The seeded USD account, and one per other currency it collected in.
      expect(
        own.map((a: { supportCurrencies: string[] }) => a.supportCurrencies[0]).sort(),
      ).toEqual([...new Set(["USD", ...collected])].sort());
      for (const account of own) {
        const detail = await api.ok(accountGlobalGetDetail, {
          requestId: requestId(),
          onBehalfOf: child,
          globalAccountId: account.globalAccountId,
        });
        expect(detail.customerId).toBe(child);
        const sibling = CHILDREN.find((c) => c !== child) as string;
        const refused = await api.call(accountGlobalGetDetail, {
          requestId: requestId(),
          onBehalfOf: sibling,
          globalAccountId: account.globalAccountId,
        });
        expect(refused.respCode).toBe("40009");
      }
    }
  });

  it("keeps refusing a merchant the parent may not act for: 40003 on transactions, 40009 on getDetail", async () => {
    const child = CHILDREN[0] as string;
    const txns = await api.call(accountTransactionsServiceQuery, {
      requestId: requestId(),
      onBehalfOf: STRANGER,
      serviceIds: serviceIdsOf(owned.get(child) ?? []).slice(0, 5),
    });
    expect(txns.respCode).toBe("40003");
    const { globalAccounts } = await api.admin("GET", "/account/global-accounts");
    const detail = await api.call(accountGlobalGetDetail, {
      requestId: requestId(),
      onBehalfOf: STRANGER,
      globalAccountId: globalAccounts.find((a: { merchantNo: string }) => a.merchantNo === child)
        .globalAccountId,
    });
    expect(detail.respCode).toBe("40009");
  });

  it("posts on a sub-merchant's account by admin, and refuses a merchant it does not hold", async () => {
    const child = CHILDREN[2] as string;
    const { transaction } = await api.admin("POST", "/account/postings", {
      merchantNo: child,
      direction: "credit",
      currency: "SGD",
      amount: "7.25",
    });
    expect(await query([transaction.serviceId], child)).toMatchObject([{ amount: "7.25" }]);
    expect(await query([transaction.serviceId])).toEqual([]);
    await expect(
      api.admin("POST", "/account/postings", {
        merchantNo: STRANGER,
        direction: "credit",
        currency: "USD",
        amount: "1.00",
      }),
    ).rejects.toMatchObject({ status: 400, body: { issues: [{ field: "merchantNo" }] } });
    await expect(
      api.admin("GET", `/account/balances?merchantNo=${STRANGER}`),
    ).rejects.toMatchObject({ status: 400 });
  });

  it("refuses to generate for a merchant that is not a configured child, naming it", async () => {
    await expect(
      api.admin("POST", "/account/generate", { ...GENERATE, subMerchants: [CHILDREN[1], PARENT] }),
    ).rejects.toMatchObject({
      status: 400,
      body: { error: expect.stringMatching(/^subMerchants\[1\]: /) },
    });
  });
});

describe("generating sub-merchant movements", () => {
  it("gives the same movements for the same seed, and leaves the parent's records as they were", async () => {
    const [a, b, parentOnly] = await Promise.all([platform(), platform(), platform()]);
    try {
      const cards = { seed: 3, cards: 4, cardTransactions: 200, days: 10 };
      for (const s of [a, b, parentOnly]) {
        await clientFor(s).admin("POST", "/issuing/generate", cards);
      }
      await clientFor(a).admin("POST", "/account/generate", GENERATE);
      await clientFor(b).admin("POST", "/account/generate", GENERATE);
      const [ta, tb, tp] = await Promise.all([
        a.admin.state(),
        b.admin.state(),
        parentOnly.admin.state(),
      ]);
      expect(ta.subMerchantLedgers).toEqual(tb.subMerchantLedgers);
      expect(ta.ledger).toEqual(tp.ledger);
      expect(ta.areas.issuing).toEqual(tp.areas.issuing);
      for (const child of CHILDREN) {
        expect(tp.subMerchantLedgers[child]).toEqual({ balances: {}, transactions: [] });
      }
      await clientFor(b).admin("POST", "/account/generate", {
        ...GENERATE,
        seed: 6,
        subMerchants: [CHILDREN[1]],
      });
      const again = await b.admin.state();
      expect(again.subMerchantLedgers[CHILDREN[0] as string]).toEqual(
        ta.subMerchantLedgers[CHILDREN[0] as string],
      );
      expect(again.subMerchantLedgers[CHILDREN[1] as string]?.transactions.length).toBeGreaterThan(
        ta.subMerchantLedgers[CHILDREN[1] as string]?.transactions.length ?? 0,
      );
    } finally {
      await Promise.all([a.close(), b.close(), parentOnly.close()]);
    }
  });
});
