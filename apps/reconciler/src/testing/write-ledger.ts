// writeLedger: the merchant's ledger derived from the sandbox's ground truth, equal to what the
// provider holds except for chosen discrepancies, with the list of what was injected (and of
// what the ground truth itself should raise, such as stale authorizations).
import { addDecimal, negateDecimal, sumDecimals } from "@merchantkit/core";
import {
  type GroundTruth,
  issuingRecords,
  seededRandom,
  type TruthCardTransaction,
} from "@merchantkit/sandbox";
import { csvField } from "../ledger/csv";
import { LEDGER_COLUMNS, type LedgerEntry } from "../ledger/ledger-row";
import type { BreakClass } from "../match/break-classes";

/**
 * Classes a ledger cannot cause: stale authorizations are in the ground truth itself (listed
 * as such), a cash leg differs only when the provider's own postings do.
 */
const NOT_INJECTABLE = ["stale_authorization", "cash_leg_mismatch"] as const;

/** The break classes the generator can inject into a ledger. */
export type InjectableClass = Exclude<BreakClass, (typeof NOT_INJECTABLE)[number]>;

// Every injectable class, in the order the injections pick their records (so a seed writes the
// same ledger); the type makes a class that is added to the passes fail to compile here.
const INJECTION_ORDER: Record<InjectableClass, true> = {
  missing_in_ledger: true,
  missing_at_provider: true,
  amount_mismatch: true,
  currency_mismatch: true,
  duplicate_in_ledger: true,
  status_mismatch: true,
  fee_mismatch: true,
  orphan_refund_or_reversal: true,
  proposed_match: true,
};

export const INJECTABLE_CLASSES = Object.keys(INJECTION_ORDER) as InjectableClass[];

export interface InjectedDiscrepancy {
  /** The break class matching must report for it. */
  class: InjectableClass | "stale_authorization";
  /** The ledger entry the break names, when it is about one. */
  entryId?: string | undefined;
  /** The provider record the break names, when it is about one. */
  providerRef?: string | undefined;
  detail: string;
  /** The sub-merchant it is of (its merchantNo); absent: the merchant itself. */
  entity?: string | undefined;
  /** injected into the ledger, or present in the ground truth itself. */
  origin: "injected" | "ground_truth";
}

export interface WriteLedgerOptions {
  seed: number;
  /** Classes to inject, once each or with a count; default every injectable class once. */
  discrepancies?: readonly InjectableClass[] | Partial<Record<InjectableClass, number>> | undefined;
  /** "Now" for grace periods and stale authorizations; default the ground truth's clock. */
  asOf?: number | undefined;
  /** Authorizations still P for longer than this are listed as stale (default 7 days). */
  staleAuthorizationAfterMs?: number | undefined;
  /** Classes injected into each sub-merchant's account entries, with a count (default none). */
  subMerchantDiscrepancies?: Partial<Record<SubMerchantClass, number>> | undefined;
}

/**
 * The classes writeLedger can inject into a sub-merchant's entries (account postings only). Not
 * missing_in_ledger: the account area lists postings by serviceId only, and a sub-merchant's
 * serviceIds are known from its ledger entries alone, so a serviceId none names is never read
 * (docs/assumptions.md, "Entities").
 */
export const SUB_MERCHANT_CLASSES = [
  "missing_at_provider",
  "amount_mismatch",
  "duplicate_in_ledger",
] as const satisfies readonly InjectableClass[];
export type SubMerchantClass = (typeof SUB_MERCHANT_CLASSES)[number];

export interface WrittenLedger {
  /** The ledger file (docs/ledger-format.md), header included. */
  csv: string;
  entries: LedgerEntry[];
  injected: InjectedDiscrepancy[];
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const CARD_FEES = [
  ["TRANSACTION", "transactionFee", "transactionFeeCurrency"],
  ["CROSS_BORDER", "crossBorderFee", "crossBorderFeeCurrency"],
  ["EXCHANGE", "exchangeFee", "exchangeFeeCurrency"],
] as const;

interface Planned extends Omit<LedgerEntry, "entryId" | "bookedAt"> {
  at: number;
  /** What the entry books, for picking injection targets. */
  tag: "clearing" | "refund" | "chain" | "net" | "fee" | "operation" | "gross" | "account";
  /** The card transaction or operation the entry (or its fee) belongs to. */
  parent?: string;
  dropped?: boolean;
}

function counts(d: WriteLedgerOptions["discrepancies"]): [InjectableClass, number][] {
  if (d === undefined) return INJECTABLE_CLASSES.map((c) => [c, 1]);
  if (Array.isArray(d)) return (d as readonly InjectableClass[]).map((c) => [c, 1]);
  return Object.entries(d as Record<InjectableClass, number>) as [InjectableClass, number][];
}

/**
 * Books every settled clearing and refund, every fee, every settled card operation that moves
 * money and every account posting that belongs to no operation, in several styles matching must
 * handle (per event; one entry per authorization chain with several clearings; a clearing net of
 * its refunds; an operation gross of its fees; an operation keyed by operateRecordId), then
 * injects the requested discrepancies, each on a card no other injection uses.
 */
export function writeLedger(truth: GroundTruth, options: WriteLedgerOptions): WrittenLedger {
  const rnd = seededRandom((options.seed ^ 0x5bd1e995) >>> 0);
  const asOf = options.asOf ?? truth.clock?.now ?? Date.now();
  const staleAfter = options.staleAuthorizationAfterMs ?? 7 * DAY;
  const { cardTransactions: txns, operateRecords: ops } = issuingRecords(truth);
  const byNo = new Map(txns.map((t) => [t.txnOrderNo, t]));
  const settled = txns.filter((t) => t.txnStatus === "S" && t.settleAmount !== undefined);
  const clearings = settled.filter((t) => t.txnType === "CLEARING");
  const refundsOf = new Map<string, TruthCardTransaction[]>();
  for (const r of settled)
    if (r.txnType === "REFUND" && r.originTxnOrderNoForRefund) {
      const list = refundsOf.get(r.originTxnOrderNoForRefund) ?? [];
      list.push(r);
      refundsOf.set(r.originTxnOrderNoForRefund, list);
    }
  const clearingsOf = new Map<string, TruthCardTransaction[]>();
  for (const c of clearings)
    if (c.originTxnOrderNo) {
      const list = clearingsOf.get(c.originTxnOrderNo) ?? [];
      list.push(c);
      clearingsOf.set(c.originTxnOrderNo, list);
    }

  const planned: Planned[] = [];
  const delay = () => Math.floor(rnd() * 6 * HOUR);
  const bookAt = (at: number | undefined) => Math.min((at ?? asOf) + delay(), asOf);
  const txnTime = (t: TruthCardTransaction) => t.settleTime ?? t.transactionTime ?? asOf;
  const feesOf = (c: TruthCardTransaction, at: number) => {
    for (const [feeType, amountKey, currencyKey] of CARD_FEES) {
      const amount = c[amountKey];
      if (amount === undefined || /^0(\.0+)?$/.test(amount)) continue;
      planned.push({
        kind: "fee",
        providerRef: c.txnOrderNo,
        feeType,
        amount: negateDecimal(amount),
        currency: c[currencyKey] ?? (c.settleCurrency as string),
        cardId: c.cardId,
        description: `${feeType.toLowerCase().replace("_", " ")} fee`,
        at,
        tag: "fee",
        parent: c.txnOrderNo,
      });
    }
  };

  // Chains with several clearings: half booked as one entry on the authorization.
  const chainBooked = new Set<string>();
  for (const [auth, list] of clearingsOf)
    if (list.length >= 2 && byNo.has(auth) && rnd() < 0.5) chainBooked.add(auth);
  // Refunded clearings: a third booked net of their refunds.
  const netBooked = new Set<string>();
  for (const [clearing] of refundsOf)
    if (!chainBooked.has(byNo.get(clearing)?.originTxnOrderNo ?? "") && rnd() < 1 / 3)
      netBooked.add(clearing);

  for (const auth of [...chainBooked].sort()) {
    const list = clearingsOf.get(auth) as TruthCardTransaction[];
    const last = list[list.length - 1] as TruthCardTransaction;
    planned.push({
      kind: "card_transaction",
      providerRef: auth,
      amount: negateDecimal(sumDecimals(list.map((c) => c.settleAmount as string))),
      currency: last.settleCurrency as string,
      cardId: last.cardId,
      description: `${last.merchantName ?? "card spend"} (${list.length} clearings)`,
      at: bookAt(txnTime(last)),
      tag: "chain",
      parent: auth,
    });
  }
  for (const t of settled) {
    const at = bookAt(txnTime(t));
    if (t.txnType === "CLEARING") {
      if (!chainBooked.has(t.originTxnOrderNo ?? "")) {
        const refunds = netBooked.has(t.txnOrderNo) ? (refundsOf.get(t.txnOrderNo) ?? []) : [];
        planned.push({
          kind: "card_transaction",
          providerRef: t.txnOrderNo,
          amount: addDecimal(
            negateDecimal(t.settleAmount as string),
            sumDecimals(refunds.map((r) => r.settleAmount as string)),
          ),
          currency: t.settleCurrency as string,
          cardId: t.cardId,
          description: t.merchantName ?? "card spend",
          at,
          tag: refunds.length ? "net" : "clearing",
          parent: t.txnOrderNo,
        });
      }
      feesOf(t, at);
    } else if (t.txnType === "REFUND" && !netBooked.has(t.originTxnOrderNoForRefund ?? "")) {
      planned.push({
        kind: "card_transaction",
        providerRef: t.txnOrderNo,
        amount: t.settleAmount as string,
        currency: t.settleCurrency as string,
        cardId: t.cardId,
        description: `refund ${t.merchantName ?? ""}`.trim(),
        at,
        tag: "refund",
        parent: t.txnOrderNo,
      });
    }
  }

  const opIds = new Set(ops.map((o) => o.operateRecordId));
  for (const o of ops) {
    if (o.status !== "S" || o.amount === undefined || /^0(\.0+)?$/.test(o.amount)) continue;
    const signed =
      o.type === "RETURN" || o.type === "TERMINATE" ? o.amount : negateDecimal(o.amount);
    const fees = o.feeList ?? [];
    const at = bookAt(o.operateTime);
    const gross = fees.length > 0 && rnd() < 0.25;
    const ref = rnd() < 0.2 ? o.operateRecordId : o.clientRequestId;
    planned.push({
      kind: "card_operation",
      providerRef: ref,
      amount: gross
        ? addDecimal(signed, negateDecimal(sumDecimals(fees.map((f) => f.feeAmount))))
        : signed,
      currency: o.currency as string,
      cardId: o.cardId,
      description: `card ${o.type.toLowerCase()}${gross ? " incl. fees" : ""}`,
      at,
      tag: gross ? "gross" : "operation",
      parent: o.clientRequestId,
    });
    if (!gross)
      for (const f of fees)
        planned.push({
          kind: "fee",
          providerRef: ref,
          feeType: f.feeType,
          amount: negateDecimal(f.feeAmount),
          currency: f.feeCurrency,
          cardId: o.cardId,
          description: `${f.feeType.toLowerCase()} fee`,
          at,
          tag: "fee",
          parent: o.clientRequestId,
        });
  }
  for (const g of accountGroups(truth.ledger.transactions, opIds))
    planned.push({
      kind: "account",
      providerRef: g.serviceId,
      amount: sumDecimals(g.amounts),
      currency: g.currency,
      description: g.type.toLowerCase().replace("_", " "),
      at: bookAt(g.at),
      tag: "account",
    });

  // Injections.
  const injected: InjectedDiscrepancy[] = [];
  const usedCards = new Set<string>();
  const extra: Planned[] = [];
  const pick = <T>(list: readonly T[], card: (x: T) => string | undefined): T | undefined => {
    const free = list.filter((x) => !usedCards.has(card(x) ?? ""));
    if (free.length === 0) return undefined;
    const chosen = free[Math.floor(rnd() * free.length)] as T;
    const c = card(chosen);
    if (c) usedCards.add(c);
    return chosen;
  };
  const feeIndex = new Map<string, Planned[]>();
  for (const p of planned)
    if (p.tag === "fee" && p.parent) {
      const list = feeIndex.get(p.parent) ?? [];
      list.push(p);
      feeIndex.set(p.parent, list);
    }
  const feesFor = (parent: string): Planned[] => feeIndex.get(parent) ?? [];
  // Plain clearings (booked on their own, no refund), whose entry injections may change.
  const plain = () =>
    planned.filter((p) => p.tag === "clearing" && !p.dropped && !refundsOf.has(p.providerRef));
  for (const [cls, n] of counts(options.discrepancies))
    for (let k = 0; k < n; k++) {
      const done = inject(cls);
      if (!done)
        throw new RangeError(
          `writeLedger: no record left to inject ${cls} into (seed ${options.seed})`,
        );
    }

  function inject(cls: InjectableClass): boolean {
    switch (cls) {
      case "missing_in_ledger": {
        const p = pick(plain(), (x) => x.cardId);
        if (!p) return false;
        p.dropped = true;
        for (const f of feesFor(p.providerRef)) f.dropped = true;
        injected.push({
          class: cls,
          providerRef: p.providerRef,
          detail: `clearing ${p.providerRef} (${p.amount} ${p.currency}) left out of the ledger`,
          origin: "injected",
        });
        return true;
      }
      case "missing_at_provider": {
        const at = asOf - 3 * DAY - Math.floor(rnd() * 2 * DAY);
        let ref: string;
        do ref = `T9${String(Math.floor(rnd() * 1e14)).padStart(14, "0")}`;
        while (byNo.has(ref));
        const amount = `-${10 + Math.floor(rnd() * 490)}.${String(Math.floor(rnd() * 100)).padStart(2, "0")}`;
        const entry: Planned = {
          kind: "card_transaction",
          providerRef: ref,
          amount,
          currency: "USD",
          description: "card spend the provider never sent",
          at,
          tag: "clearing",
        };
        extra.push(entry);
        injected.push({
          class: cls,
          entryId: `#extra${extra.length - 1}`,
          providerRef: ref,
          detail: `entry for ${ref} (${amount} USD) that the provider does not have`,
          origin: "injected",
        });
        return true;
      }
      case "amount_mismatch": {
        const p = pick(plain(), (x) => x.cardId);
        if (!p) return false;
        const before = p.amount;
        p.amount = addDecimal(p.amount, rnd() < 0.5 ? "-1.00" : "0.37");
        injected.push({
          class: cls,
          providerRef: p.providerRef,
          detail: `clearing ${p.providerRef} booked as ${p.amount} instead of ${before} ${p.currency}`,
          origin: "injected",
        });
        return true;
      }
      case "currency_mismatch": {
        const p = pick(plain(), (x) => x.cardId);
        if (!p) return false;
        const before = p.currency;
        p.currency = before === "EUR" ? "USD" : "EUR";
        injected.push({
          class: cls,
          providerRef: p.providerRef,
          detail: `clearing ${p.providerRef} booked in ${p.currency} instead of ${before}`,
          origin: "injected",
        });
        return true;
      }
      case "duplicate_in_ledger": {
        const p = pick(plain(), (x) => x.cardId);
        if (!p) return false;
        extra.push({
          ...p,
          at: Math.min(p.at + DAY, asOf),
          description: `${p.description ?? ""} (booked again)`,
        });
        injected.push({
          class: cls,
          entryId: `#extra${extra.length - 1}`,
          providerRef: p.providerRef,
          detail: `clearing ${p.providerRef} booked twice`,
          origin: "injected",
        });
        return true;
      }
      case "status_mismatch": {
        const failedRefunds = txns.filter((t) => t.txnType === "REFUND" && t.txnStatus === "F");
        const declined = txns.filter(
          (t) => t.txnType === "AUTHORIZATION" && t.txnStatus === "F" && t.cardAmount,
        );
        const t = pick(failedRefunds, (x) => x.cardId) ?? pick(declined, (x) => x.cardId);
        if (!t) return false;
        const refund = t.txnType === "REFUND";
        extra.push({
          kind: "card_transaction",
          providerRef: t.txnOrderNo,
          amount: refund ? (t.cardAmount as string) : negateDecimal(t.cardAmount as string),
          currency: t.cardCurrency as string,
          description: refund
            ? "refund (cancelled at the provider)"
            : "card spend (declined at the provider)",
          at: bookAt(t.transactionTime),
          tag: refund ? "refund" : "clearing",
        });
        injected.push({
          class: cls,
          entryId: `#extra${extra.length - 1}`,
          providerRef: t.txnOrderNo,
          detail: `${t.txnType.toLowerCase()} ${t.txnOrderNo} booked although the provider has it F`,
          origin: "injected",
        });
        return true;
      }
      case "fee_mismatch": {
        const withFee = plain().filter((p) => feesFor(p.providerRef).some((f) => !f.dropped));
        const p = pick(withFee, (x) => x.cardId);
        if (!p) return false;
        const fee = feesFor(p.providerRef)[0] as Planned;
        const before = fee.amount;
        fee.amount = addDecimal(fee.amount, "-0.25");
        injected.push({
          class: cls,
          providerRef: p.providerRef,
          detail: `${fee.feeType} fee of ${p.providerRef} booked as ${fee.amount} instead of ${before} ${fee.currency}`,
          origin: "injected",
        });
        return true;
      }
      case "orphan_refund_or_reversal": {
        const candidates = planned.filter(
          (p) =>
            p.tag === "clearing" &&
            !p.dropped &&
            refundsOf.get(p.providerRef)?.length === 1 &&
            !netBooked.has(p.providerRef),
        );
        const p = pick(candidates, (x) => x.cardId);
        if (!p) return false;
        p.dropped = true;
        for (const f of feesFor(p.providerRef)) f.dropped = true;
        const refund = (
          refundsOf.get(p.providerRef) as TruthCardTransaction[]
        )[0] as TruthCardTransaction;
        injected.push({
          class: cls,
          providerRef: refund.txnOrderNo,
          detail: `refund ${refund.txnOrderNo} is booked but its clearing ${p.providerRef} is not`,
          origin: "injected",
        });
        return true;
      }
      case "proposed_match": {
        const candidates = plain().filter((p) => feesFor(p.providerRef).length === 0);
        const p = pick(candidates, (x) => x.cardId);
        if (!p) return false;
        const original = p.providerRef;
        p.providerRef = `${original.slice(0, -3)}${original.slice(-3).split("").reverse().join("")}X`;
        injected.push({
          class: cls,
          providerRef: original,
          detail: `clearing ${original} booked under the mistyped key ${p.providerRef}`,
          origin: "injected",
        });
        return true;
      }
    }
  }

  // Stale authorizations are in the ground truth itself, not in the ledger.
  for (const t of txns)
    if (
      t.txnType === "AUTHORIZATION" &&
      t.txnStatus === "P" &&
      (t.transactionTime ?? asOf) < asOf - staleAfter
    )
      injected.push({
        class: "stale_authorization",
        providerRef: t.txnOrderNo,
        detail: `authorization ${t.txnOrderNo} still holds ${t.cardAmount} ${t.cardCurrency} since ${new Date(t.transactionTime ?? 0).toISOString()}`,
        origin: "ground_truth",
      });

  // Entry ids in booking order (ties by reference), so the file reads like a journal.
  const all = [
    ...planned.filter((p) => !p.dropped),
    ...extra.map((p, i) => ({ ...p, extraIndex: i })),
  ];
  all.sort(
    (a, b) =>
      a.at - b.at ||
      a.providerRef.localeCompare(b.providerRef) ||
      (a.feeType ?? "").localeCompare(b.feeType ?? ""),
  );
  const width = String(all.length).length;
  const extraIds = new Map<number, string>();
  const entries: LedgerEntry[] = all.map((p, i) => {
    const entryId = `L${String(i + 1).padStart(Math.max(width, 6), "0")}`;
    if ("extraIndex" in p) extraIds.set(p.extraIndex as number, entryId);
    return {
      entryId,
      kind: p.kind,
      providerRef: p.providerRef,
      amount: p.amount,
      currency: p.currency,
      bookedAt: new Date(p.at).toISOString(),
      feeType: p.feeType,
      cardId: p.cardId,
      description: p.description,
    };
  });
  for (const item of injected)
    if (item.entryId?.startsWith("#extra"))
      item.entryId = extraIds.get(Number(item.entryId.slice(6)));
  // Each sub-merchant's own account postings after the merchant's, from a random stream of
  // their own: a ground truth without sub-merchants writes the ledger it always did.
  const subRnd = seededRandom((options.seed ^ 0x2545f491) >>> 0);
  for (const [merchantNo, ledger] of Object.entries(truth.subMerchantLedgers ?? {}).sort()) {
    const sub = subMerchantEntries(merchantNo, ledger.transactions, asOf, subRnd, options);
    entries.push(...sub.entries);
    injected.push(...sub.injected);
  }
  return { csv: ledgerCsv(entries), entries, injected };
}

/**
 * A ledger file of `entries` (docs/ledger-format.md), header included. The entity column only
 * when an entry names a sub-merchant: a file of the merchant alone keeps the columns it always
 * had.
 */
export function ledgerCsv(entries: readonly LedgerEntry[]): string {
  const withEntity = entries.some((e) => e.entity !== undefined);
  const columns = withEntity ? LEDGER_COLUMNS : LEDGER_COLUMNS.filter((c) => c !== "entity");
  const lines = [columns.join(",")];
  for (const e of entries)
    lines.push(
      [
        e.entryId,
        e.kind,
        e.providerRef,
        e.amount,
        e.currency,
        e.bookedAt,
        e.feeType,
        e.cardId,
        e.description,
        ...(withEntity ? [e.entity] : []),
      ]
        .map(csvField)
        .join(","),
    );
  return `${lines.join("\n")}\n`;
}

/** Account postings grouped by serviceId and currency (those of card operations left out). */
function accountGroups(
  transactions: GroundTruth["ledger"]["transactions"],
  skip: ReadonlySet<string> = new Set(),
) {
  const groups = new Map<
    string,
    { serviceId: string; currency: string; amounts: string[]; at: number; type: string }
  >();
  for (const a of transactions) {
    if (skip.has(a.serviceId)) continue;
    const key = `${a.serviceId}:${a.currency}`;
    const group = groups.get(key) ?? {
      serviceId: a.serviceId,
      currency: a.currency,
      amounts: [],
      at: 0,
      type: a.businessType,
    };
    group.amounts.push(a.amount);
    group.at = Math.max(group.at, Date.parse(a.balanceUpdDate));
    groups.set(key, group);
  }
  return [...groups.values()];
}

/**
 * A sub-merchant's entries: one per serviceId and currency of its account, ids
 * `<merchantNo>-L000001`…, with the requested discrepancies (each on its own serviceId).
 */
function subMerchantEntries(
  merchantNo: string,
  transactions: GroundTruth["ledger"]["transactions"],
  asOf: number,
  rnd: () => number,
  options: WriteLedgerOptions,
): { entries: LedgerEntry[]; injected: InjectedDiscrepancy[] } {
  const injected: InjectedDiscrepancy[] = [];
  const planned = accountGroups(transactions)
    .map((g) => ({
      kind: "account" as const,
      providerRef: g.serviceId,
      amount: sumDecimals(g.amounts),
      currency: g.currency,
      description: g.type.toLowerCase().replace("_", " "),
      at: Math.min(g.at + Math.floor(rnd() * 6 * HOUR), asOf),
      entity: merchantNo,
    }))
    .sort((a, b) => a.at - b.at || a.providerRef.localeCompare(b.providerRef));
  const extra: typeof planned = [];
  const used = new Set<string>();
  const pick = () => {
    const free = planned.filter((p) => !used.has(p.providerRef) && p.amount !== "0");
    const chosen = free[Math.floor(rnd() * free.length)];
    if (chosen) used.add(chosen.providerRef);
    return chosen;
  };
  const base = { entity: merchantNo, origin: "injected" as const };
  for (const cls of SUB_MERCHANT_CLASSES)
    for (let k = 0; k < (options.subMerchantDiscrepancies?.[cls] ?? 0); k++) {
      if (cls === "missing_at_provider") {
        const ref = `9${String(Math.floor(rnd() * 1e15)).padStart(15, "0")}`;
        const amount = `${10 + Math.floor(rnd() * 490)}.${String(Math.floor(rnd() * 100)).padStart(2, "0")}`;
        extra.push({
          kind: "account",
          providerRef: ref,
          amount,
          currency: "USD",
          description: "collection the provider never made",
          at: asOf - 3 * DAY - Math.floor(rnd() * 2 * DAY),
          entity: merchantNo,
        });
        injected.push({
          ...base,
          class: cls,
          providerRef: ref,
          detail: `${merchantNo}: entry for serviceId ${ref} that the provider does not have`,
        });
        continue;
      }
      const p = pick();
      if (!p)
        throw new RangeError(`writeLedger: no entry of ${merchantNo} left to inject ${cls} into`);
      if (cls === "amount_mismatch") p.amount = addDecimal(p.amount, "0.37");
      else extra.push({ ...p, at: Math.min(p.at + DAY, asOf) });
      injected.push({
        ...base,
        class: cls,
        providerRef: p.providerRef,
        detail: `${merchantNo}: serviceId ${p.providerRef} (${cls})`,
      });
    }
  const entries = [...planned, ...extra].map(
    (p, i): LedgerEntry => ({
      entryId: `${merchantNo}-L${String(i + 1).padStart(6, "0")}`,
      kind: p.kind,
      providerRef: p.providerRef,
      amount: p.amount,
      currency: p.currency,
      bookedAt: new Date(p.at).toISOString(),
      description: p.description,
      entity: p.entity,
    }),
  );
  return { entries, injected };
}
