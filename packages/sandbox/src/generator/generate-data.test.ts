import { createHash } from "node:crypto";
import { queryTxnList } from "@merchantkit/contract";
import { stringifyJson, toMinorUnits } from "@merchantkit/core";
import { describe, expect, it } from "vitest";
import { createIssuingArea } from "../issuing/issuing-area";
import type { IssuingState } from "../issuing/issuing-state";
import { startSandbox } from "../start-sandbox";
import { clientFor, inProcessRuntime, TEST_NOW } from "../testing/sandbox-client";
import { type GenerateOptions, generateData } from "./generate-data";

const DAY = 86_400_000;
const options: GenerateOptions = { seed: 42, cards: 120, cardTransactions: 12_000, days: 30 };

function generated(opts: GenerateOptions = options) {
  const env = inProcessRuntime();
  const area = createIssuingArea(env.runtime);
  const opening = env.runtime.ledger.balances();
  const summary = generateData(env.runtime, area.state, opts);
  return { ...env, area, state: area.state, opening, summary };
}

function groundTruthHash(g: ReturnType<typeof generated>): string {
  const truth = { issuing: g.area.dump(), ledger: g.runtime.ledger.transactions };
  return createHash("sha256").update(stringifyJson(truth)).digest("hex");
}

/**
 * Each card's balance recomputed from the records alone: money in (S CREATE/DEPOSIT), out (S
 * RETURN/TERMINATE), clearings with their fees, settled refunds, minus what pending
 * authorizations still hold.
 */
function cardBalanceProblems(state: IssuingState): string[] {
  const expected = new Map<string, bigint>();
  const add = (cardId: string, units: bigint) =>
    expected.set(cardId, (expected.get(cardId) ?? 0n) + units);
  const u = (amount: string | undefined) => toMinorUnits(amount ?? "0", 2);
  for (const op of state.operations.all.items) {
    if (op.status !== "S") continue;
    if (op.type === "CREATE" || op.type === "DEPOSIT") add(op.card.cardId, u(op.amount));
    if (op.type === "RETURN" || op.type === "TERMINATE") add(op.card.cardId, -u(op.amount));
  }
  for (const t of state.transactions.all.items) {
    if (t.txnStatus !== "S") continue;
    if (t.txnType === "CLEARING") {
      add(
        t.card.cardId,
        -u(t.cardAmount) - u(t.transactionFee) - u(t.crossBorderFee) - u(t.exchangeFee),
      );
    }
    if (t.txnType === "REFUND") add(t.card.cardId, u(t.cardAmount));
  }
  for (const [auth, held] of state.holds) add(auth.card.cardId, -held);
  const problems: string[] = [];
  for (const card of state.cards.values()) {
    const want = expected.get(card.cardId) ?? 0n;
    if (want !== card.available) problems.push(`${card.cardId}: ${card.available} ≠ ${want}`);
    if (card.available < 0n) problems.push(`${card.cardId}: negative ${card.available}`);
  }
  return problems;
}

describe("generateData", () => {
  it("gives the same ground truth for the same seed and another for another seed", () => {
    const a = generated();
    const b = generated();
    const c = generated({ ...options, seed: 43 });
    expect(groundTruthHash(a)).toBe(groundTruthHash(b));
    expect(groundTruthHash(c)).not.toBe(groundTruthHash(a));
    expect(a.summary).toEqual(b.summary);
  });

  it("makes exactly the requested records, in time order, inside the period", () => {
    const { state, summary } = generated();
    expect(summary.cardTransactions).toBe(12_000);
    expect(state.transactions.size).toBe(12_000);
    expect(state.cards.size).toBe(120);
    expect(summary.from).toBe(TEST_NOW - 30 * DAY);
    expect(summary.to).toBe(TEST_NOW);
    const items = state.transactions.all.items;
    for (let i = 1; i < items.length; i++) {
      const [p, q] = [items[i - 1], items[i]] as const;
      if (!p || !q) continue;
      expect(
        p.transactionTime < q.transactionTime ||
          (p.transactionTime === q.transactionTime && p.txnOrderNo < q.txnOrderNo),
      ).toBe(true);
    }
    expect(items[0]?.transactionTime).toBeGreaterThanOrEqual(summary.from);
    expect(items.at(-1)?.transactionTime).toBeLessThanOrEqual(summary.to);
    for (const op of state.operations.all.items)
      expect(op.finishTime).toBeLessThanOrEqual(TEST_NOW);
  });

  it("makes a realistic mix of chains, FX, fees, declines and pending records", () => {
    const { state, summary } = generated();
    const items = state.transactions.all.items;
    const count = (test: (t: (typeof items)[number]) => boolean) => items.filter(test).length;
    const kinds = new Set(items.map((t) => `${t.txnType}:${t.txnStatus}`));
    for (const kind of [
      "AUTHORIZATION:S",
      "AUTHORIZATION:P",
      "AUTHORIZATION:F",
      "CLEARING:S",
      "REVERSAL:S",
      "REFUND:S",
      "REFUND:P",
      "VERIFICATION:S",
    ]) {
      expect(kinds, kind).toContain(kind);
    }
    const clearings = items.filter((t) => t.txnType === "CLEARING");
    const fx = count((t) => t.transactionCurrency !== t.card.currency) / items.length;
    expect(fx).toBeGreaterThan(0.08);
    expect(fx).toBeLessThan(0.3);
    expect(clearings.some((t) => t.exchangeFee !== undefined)).toBe(true);
    expect(clearings.some((t) => t.transactionTime - t.authTime > 3 * DAY)).toBe(true);
    expect(
      clearings.some(
        (t) =>
          t.cardAmount !== t.auth?.cardAmount && t.auth?.transactionCurrency === t.card.currency,
      ),
    ).toBe(true);
    const perAuth = new Map<unknown, number>();
    for (const t of clearings) perAuth.set(t.auth, (perAuth.get(t.auth) ?? 0) + 1);
    expect(Math.max(...perAuth.values())).toBeGreaterThanOrEqual(2);
    for (const r of items.filter((t) => t.txnType === "REFUND")) {
      expect(r.refundOf?.txnType).toBe("CLEARING");
      expect(r.auth).toBe(r.refundOf?.auth);
    }
    expect(summary.pendingAuthorizations).toBe(
      count((t) => t.txnType === "AUTHORIZATION" && t.txnStatus === "P"),
    );
    expect(summary.scheduled).toBeGreaterThan(0);
    expect(summary.threeDsDeliveries).toBeGreaterThan(0);
    const ops = new Set(state.operations.all.items.map((o) => `${o.type}:${o.status}`));
    for (const kind of [
      "CREATE:S",
      "DEPOSIT:S",
      "RETURN:S",
      "FREEZE:S",
      "UNFREEZE:S",
      "TERMINATE:S",
    ]) {
      expect(ops, kind).toContain(kind);
    }
    expect([...ops].some((k) => k.endsWith(":F"))).toBe(true);
  });

  it("posts every money movement to the ledger, balancing to the cent", () => {
    const { runtime, state, opening } = generated();
    const ledger = runtime.ledger;
    for (const [currency, balance] of Object.entries(ledger.balances())) {
      let sum = toMinorUnits(opening[currency] ?? "0", 2);
      for (const t of ledger.transactions)
        if (t.currency === currency) sum += toMinorUnits(t.amount, 2);
      expect(sum, currency).toBe(toMinorUnits(balance, 2));
      expect(toMinorUnits(balance, 2) >= 0n, currency).toBe(true);
    }
    for (const op of state.operations.all.items) {
      const postings = ledger
        .byServiceId(op.operateRecordId)
        .map((t) => [t.businessType, t.amount]);
      const fees = op.feeList.map((f) => ["FEE", `-${f.feeAmount}`]);
      if (op.status === "F") expect(postings).toEqual([]);
      else if (op.type === "CREATE")
        expect(postings).toEqual([["CARD_CREATE", `-${op.amount}`], ...fees]);
      else if (op.type === "DEPOSIT")
        expect(postings).toEqual([["CARD_DEPOSIT", `-${op.amount}`], ...fees]);
      else if (op.type === "RETURN") expect(postings).toEqual([["CARD_RETURN", op.amount]]);
      else if (op.type === "TERMINATE" && op.amount !== "0.00") {
        expect(postings).toEqual([["CARD_RETURN", op.amount]]);
      } else expect(postings).toEqual([]);
    }
  });

  it("keeps every card balance equal to its records, also after the pending tail runs", () => {
    const g = generated();
    expect(cardBalanceProblems(g.state)).toEqual([]);
    const before = g.state.transactions.size;
    g.advance(30 * DAY);
    expect(cardBalanceProblems(g.state)).toEqual([]);
    expect(g.state.transactions.size).toBeGreaterThan(before);
    const items = g.state.transactions.all.items;
    expect(items.filter((t) => t.txnType === "REFUND" && t.txnStatus === "P")).toEqual([]);
    // What happens after the fact is pushed, as live records are.
    const kinds = new Set(g.events.map((e) => `${e.data.txnType}:${e.data.txnStatus}`));
    expect(kinds).toContain("CLEARING:S");
    expect(kinds).toContain("AUTHORIZATION:S");
    expect(kinds).toContain("REFUND:S");
  });

  it("adds to what the state already holds: a second run merges in time order, ids unique", () => {
    const g = generated({ ...options, cards: 30, cardTransactions: 2_000 });
    const second = generateData(g.runtime, g.state, {
      ...options,
      seed: 9,
      cards: 20,
      cardTransactions: 1_500,
    });
    expect(second.cardTransactions).toBe(1_500);
    const items = g.state.transactions.all.items;
    expect(items).toHaveLength(3_500);
    expect(new Set(items.map((t) => t.txnOrderNo)).size).toBe(3_500);
    for (let i = 1; i < items.length; i++) {
      expect((items[i - 1]?.transactionTime ?? 0) <= (items[i]?.transactionTime ?? 0)).toBe(true);
    }
    for (const t of items) expect(g.state.findTransaction(t.txnOrderNo)).toBe(t);
    expect(g.state.cards.size).toBe(50);
    expect(new Set([...g.state.cardholders.values()].map((h) => h.email)).size).toBe(
      g.state.cardholders.size,
    );
    expect(cardBalanceProblems(g.state)).toEqual([]);
    const ops = g.state.operations.all.items;
    expect(new Set(ops.map((o) => o.operateRecordId)).size).toBe(ops.length);
    expect(new Set(ops.map((o) => o.clientRequestId)).size).toBe(ops.length);
  });

  it("is served through POST /__sandbox/issuing/generate and then queried over HTTP", async () => {
    const sandbox = await startSandbox();
    try {
      const api = clientFor(sandbox);
      await api.admin("POST", "/clock/freeze", { at: TEST_NOW });
      const { generated: summary } = await api.admin("POST", "/issuing/generate", {
        seed: 7,
        cards: 20,
        cardTransactions: 1_000,
        days: 10,
      });
      expect(summary).toMatchObject({ cards: 20, cardTransactions: 1_000 });
      const page = await api.ok(queryTxnList, { pageNum: 1, pageSize: 100 });
      expect(page).toMatchObject({ totalRecords: 1_000, totalPages: 10 });
      const lastDay = await api.ok(queryTxnList, {
        startTime: (TEST_NOW - DAY) / 1000,
        endTime: TEST_NOW / 1000,
        pageNum: 1,
        pageSize: 1,
      });
      expect(lastDay.totalRecords).toBeGreaterThan(0);
      expect(lastDay.totalRecords).toBeLessThan(1_000);
      // The ground-truth dump holds the same records in app form.
      const state = await sandbox.admin.state();
      const issuing = state.areas.issuing as Record<string, unknown[]>;
      expect(issuing.cardTransactions).toHaveLength(1_000);
      expect(issuing.cards).toHaveLength(20);
      expect(issuing.cardTransactions?.[0]).toMatchObject({
        txnOrderNo: page.records[0]?.txnOrderNo,
      });
      await expect(
        api.admin("POST", "/issuing/generate", { seed: 1, cards: 0, cardTransactions: 1, days: 1 }),
      ).rejects.toMatchObject({ status: 400 });
    } finally {
      await sandbox.close();
    }
  });
});
