// Incremental matching leaves what matching everything leaves, on random worlds and random
// changes: a differential test of runMatch(db) against runMatch(db, { full: true }).
//
// A seeded generator builds a small world — card authorizations with their clearings, refunds,
// reversals and fees, verifications, orphan refunds and stale holds; card operations with fees,
// their cash-leg postings, retries under one clientRequestId; account top-ups — and a ledger that
// books it in the documented styles (per record, per chain, net of refunds, gross of fees) with
// random discrepancies (missing, duplicated, off by cents or units, wrong currency, wrong key,
// stray entries). Then ten steps of one to three random changes each: records settle, fail, are
// corrected, added or deleted; entries are added, corrected or deleted; time passes. After every
// step an incremental run; after about half of them, and always after the last, a full run at
// the same as-of, whose stored results (pairs, groups, members, open breaks, break records, the
// statement) and figures must equal the incremental run's. A seed fails with the rows that
// differ and the changes that led there.
//
// Postgres server only, the backend production runs: like the other server-only tests it is
// skipped without DATABASE_URL, and fails in CI (CI set) when DATABASE_URL is missing.
// Ten seeds by default (about half a minute); more with, for example,
//   FUZZ_START=7000 FUZZ_SEEDS=200 DATABASE_URL=postgres://… npx vitest run incremental-fuzz
// FUZZ_STEPS changes the steps per seed (10); FUZZ_DUMP=1 writes each failing seed's world log and
// differences as JSON to the system's temporary folder. The second describe holds the smallest
// changes known to have made the two runs differ, one rule each.
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { type AccountTransaction, type GroundTruth, seededRandom } from "@merchantkit/sandbox";
import { describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { testBackends } from "../testing/databases";
import { PROVIDER_TABLES, settledClearing, storeGroundTruth } from "../testing/ground-truth";
import { runFigures, storedDifference, storedResults } from "../testing/stored-results";
import { useTestDatabase } from "../testing/use-database";
import { decideProposal } from "../workflow/decide-proposal";
import { matchManually } from "../workflow/manual-match";
import { runMatch } from "./run-match";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const SEEDS = Number(process.env.FUZZ_SEEDS ?? 10);
const START = Number(process.env.FUZZ_START ?? 1);
const STEPS = Number(process.env.FUZZ_STEPS ?? 10);

// ---------------------------------------------------------------- random numbers

class Rng {
  next: () => number;
  constructor(seed: number) {
    this.next = seededRandom(seed * 2654435761 + 17);
  }
  int(lo: number, hi: number) {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number) {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)] as T;
  }
  /** One of `xs`, or undefined (drawing nothing) when there are none. */
  pickAny<T>(xs: readonly T[]): T | undefined {
    return xs.length > 0 ? this.pick(xs) : undefined;
  }
  /** lo..hi whole units and one of a few cent values, so that amounts collide now and then. */
  money(lo: number, hi: number) {
    return `${this.int(lo, hi)}.${this.pick(["00", "50", "25", "99", "10"])}`;
  }
}

const fmt = (n: number) => n.toFixed(2);
const num = (s: unknown) => Number(s ?? 0);

// ---------------------------------------------------------------- provider records and entries

/** A card transaction in the SDK's form. */
type Txn = Record<string, string | number>;
interface Op {
  operateRecordId: string;
  clientRequestId: string;
  cardId: string;
  type: string;
  status: string;
  amount?: string;
  currency?: string;
  operateTime: number;
  feeList: { feeType: string; feeAmount: string; feeCurrency: string }[];
}
interface Entry {
  entry_id: string;
  kind: "card_transaction" | "card_operation" | "fee" | "account";
  provider_ref: string;
  amount: string;
  currency: string;
  booked_at: number;
  fee_type: string | null;
  card_id: string | null;
}
type NewEntry = Omit<Entry, "entry_id" | "fee_type" | "card_id"> & Partial<Entry>;

/** A settled clearing or refund: what moves money on a card. */
const isSettledItem = (t: Txn) =>
  t.txnStatus === "S" && (t.txnType === "CLEARING" || t.txnType === "REFUND");
/** A settled item's amount as the ledger books it: a refund gives money back. */
const bookedAmount = (t: Txn) => (t.txnType === "REFUND" ? 1 : -1) * num(t.settleAmount);

/** Provider records stored as a complete sync up to `at` would leave them. */
function storeProviderRecords(
  db: Db,
  records: { txns?: object[]; ops?: object[]; postings?: AccountTransaction[] },
  at: number,
) {
  const truth: GroundTruth = {
    ledger: { transactions: records.postings ?? [] },
    areas: { issuing: { cardTransactions: records.txns ?? [], operateRecords: records.ops ?? [] } },
  };
  return storeGroundTruth(db, truth, new Date(at));
}

const sqlText = (s: string | null) => (s === null ? "NULL" : `'${s}'`);
const sqlList = (keys: Iterable<string>) => [...keys].map(sqlText).join(", ");

/** Inserts the entries, or updates them where their entry_id is stored. */
async function storeEntries(db: Db, entries: Entry[]) {
  if (entries.length === 0) return;
  const rows = entries.map(
    (e) =>
      `(${sqlList([e.entry_id, e.kind, e.provider_ref])}, ${e.amount}, ${sqlText(e.currency)},
        '${new Date(e.booked_at).toISOString()}', ${sqlText(e.fee_type)}, ${sqlText(e.card_id)})`,
  );
  await queryText(
    db,
    `INSERT INTO ledger_entries (entry_id, kind, provider_ref, amount, currency, booked_at, fee_type, card_id)
     VALUES ${rows.join(",\n")}
     ON CONFLICT (entry_id) DO UPDATE SET kind = excluded.kind, provider_ref = excluded.provider_ref,
       amount = excluded.amount, currency = excluded.currency, booked_at = excluded.booked_at,
       fee_type = excluded.fee_type, card_id = excluded.card_id, updated_at = now()`,
  );
}

/** Every stored record, entry and result gone, and the change log empty. */
async function emptyDatabase(db: Db) {
  await queryText(
    db,
    `TRUNCATE ${PROVIDER_TABLES}, ledger_entries, match_pairs, match_groups, match_group_members, breaks, break_records,
       match_runs, match_totals, match_leftovers, sync_watermarks, manual_matches,
       manual_match_records`,
  );
  // Apart: the TRUNCATE above logs itself as a change of everything.
  await queryText(db, "TRUNCATE match_changes");
}

/**
 * `count` exact pairs nothing else touches (clearings of 7.00 on a card of their own, each booked
 * once, at `at`). An incremental run builds only on stored results that hold a pair (an empty
 * match_pairs is what a crash leaves), and they keep a few changes a small share of the records.
 */
async function storeUnrelatedPairs(db: Db, count: number, at: number) {
  const keys = Array.from({ length: count }, (_, i) => `P${i}`);
  const txns = keys.map((k) =>
    settledClearing({ cardId: "9100000000000000099", txnOrderNo: k, amount: "7.00", at }),
  );
  await storeProviderRecords(db, { txns }, at);
  await storeEntries(
    db,
    keys.map((k) => ({
      entry_id: `E${k}`,
      kind: "card_transaction",
      provider_ref: k,
      amount: "-7.00",
      currency: "USD",
      booked_at: at,
      fee_type: null,
      card_id: null,
    })),
  );
}

/** Records of one kind, the keys changed and deleted since they were last stored. */
class Tracked<T> {
  readonly all = new Map<string, T>();
  private readonly changed = new Set<string>();
  private readonly deleted = new Set<string>();
  set(key: string, value: T) {
    this.all.set(key, value);
    this.changed.add(key);
    this.deleted.delete(key);
  }
  delete(key: string) {
    this.all.delete(key);
    this.changed.delete(key);
    this.deleted.add(key);
  }
  values() {
    return [...this.all.values()];
  }
  keys() {
    return [...this.all.keys()];
  }
  /** The changed records, clearing what is tracked. */
  take() {
    const changed = [...this.changed].map((k) => this.all.get(k) as T);
    const deleted = [...this.deleted];
    this.changed.clear();
    this.deleted.clear();
    return { changed, deleted };
  }
}

// ---------------------------------------------------------------- the world

class World {
  readonly cards = ["9100000000000000001", "9100000000000000002", "9100000000000000003"];
  readonly txns = new Tracked<Txn>();
  readonly ops = new Tracked<Op>();
  readonly postings = new Tracked<AccountTransaction>();
  readonly ledger = new Tracked<Entry>();
  /** What each step changed, for a failure's report. */
  readonly log: string[] = [];
  private n = 0;

  constructor(
    readonly r: Rng,
    public asOf: number,
  ) {}

  id(prefix: string) {
    this.n++;
    return `${prefix}${this.n}`;
  }
  /** A numeric id (operateRecordId, serviceId, acntTxnId). */
  digits() {
    this.n++;
    return `19537125853514${String(this.n).padStart(5, "0")}`;
  }

  setTxn(t: Txn) {
    this.txns.set(String(t.txnOrderNo), t);
  }
  setOp(o: Op) {
    this.ops.set(o.operateRecordId, o);
  }
  setPosting(p: AccountTransaction) {
    this.postings.set(p.acntTxnId, p);
  }
  txnsWhere(f: (t: Txn) => boolean) {
    return this.txns.values().filter(f);
  }

  // ---- provider records

  /** An authorization and (if settled) its clearings, refunds, reversal; returns its key. */
  chain(at: number, opts: { authStatus?: string } = {}) {
    const r = this.r;
    const card = r.pick(this.cards);
    const cur = r.chance(0.85) ? "USD" : "EUR";
    const authStatus = opts.authStatus ?? (r.chance(0.75) ? "S" : "P");
    const a = this.id("A");
    const total = r.money(5, 60);
    this.setTxn({
      cardId: card,
      cardCurrency: cur,
      txnType: "AUTHORIZATION",
      txnStatus: authStatus,
      txnOrderNo: a,
      transactionTime: at,
      cardAmount: total,
    });
    if (authStatus === "S" || r.chance(0.3)) {
      const nClear = r.pick([0, 1, 1, 1, 1, 2]);
      for (let i = 0; i < nClear; i++) {
        const st = authStatus === "P" ? "P" : r.pick(["S", "S", "S", "S", "S", "S", "P", "F"]);
        const amt = nClear === 1 ? total : r.money(2, 30);
        this.clearing(a, card, cur, amt, at + r.int(1, 30) * HOUR, st);
      }
      if (authStatus === "S" && r.chance(0.1)) {
        this.setTxn({
          cardId: card,
          cardCurrency: cur,
          txnType: "REVERSAL",
          txnStatus: "S",
          txnOrderNo: this.id("V"),
          originTxnOrderNo: a,
          transactionTime: at + HOUR,
          cardAmount: r.money(1, 5),
        });
      }
    }
    return a;
  }

  clearing(a: string, card: string, cur: string, amount: string, at: number, status: string) {
    const r = this.r;
    const k = this.id("K");
    const settleCur = r.chance(0.93) ? cur : cur === "USD" ? "EUR" : "USD";
    const t: Txn = {
      cardId: card,
      cardCurrency: cur,
      txnType: "CLEARING",
      txnStatus: status,
      txnOrderNo: k,
      originTxnOrderNo: a,
      transactionTime: at,
      cardAmount: amount,
    };
    if (status === "S") Object.assign(t, this.settled(amount, settleCur, at));
    if (r.chance(0.4))
      Object.assign(t, { transactionFee: r.money(0, 2), transactionFeeCurrency: settleCur });
    if (r.chance(0.15)) Object.assign(t, { exchangeFee: r.money(0, 1) });
    this.setTxn(t);
    if (status === "S" && r.chance(0.3)) this.refund(k);
    return k;
  }

  settled(amount: string, cur: string, at: number) {
    return { settleAmount: amount, settleCurrency: cur, settleTime: at + this.r.int(0, 20) * HOUR };
  }

  refund(k: string) {
    const c = this.txns.all.get(k);
    if (!c) return;
    const r = this.r;
    const st = r.chance(0.85) ? "S" : "P";
    const amt = fmt(Math.max(0.5, Math.round(num(c.cardAmount) * r.next() * 100) / 100));
    const at = Number(c.transactionTime) + r.int(2, 72) * HOUR;
    const t: Txn = {
      cardId: c.cardId as string,
      cardCurrency: c.cardCurrency as string,
      txnType: "REFUND",
      txnStatus: st,
      txnOrderNo: this.id("R"),
      originTxnOrderNo: c.originTxnOrderNo as string,
      originTxnOrderNoForRefund: k,
      transactionTime: at,
      cardAmount: amt,
    };
    if (st === "S")
      Object.assign(t, this.settled(amt, String(c.settleCurrency ?? c.cardCurrency), at));
    this.setTxn(t);
    return String(t.txnOrderNo);
  }

  /** A verification, a refund of a clearing the provider does not have, or a stale hold. */
  oddTxn(at: number) {
    const r = this.r;
    const card = r.pick(this.cards);
    const kind = r.pick(["VERIFICATION", "ORPHAN_REFUND", "STALE_AUTH"]);
    if (kind === "VERIFICATION") {
      this.setTxn({
        cardId: card,
        cardCurrency: "USD",
        txnType: "VERIFICATION",
        txnStatus: "S",
        txnOrderNo: this.id("Y"),
        transactionTime: at,
        cardAmount: "0.00",
      });
    } else if (kind === "ORPHAN_REFUND") {
      const amt = r.money(1, 20);
      this.setTxn({
        cardId: card,
        cardCurrency: "USD",
        txnType: "REFUND",
        txnStatus: "S",
        txnOrderNo: this.id("R"),
        originTxnOrderNo: this.id("A"),
        originTxnOrderNoForRefund: this.id("K"),
        transactionTime: at,
        cardAmount: amt,
        ...this.settled(amt, "USD", at),
      });
    } else {
      this.chain(this.asOf - r.int(5, 9) * DAY, { authStatus: "P" });
    }
  }

  operation(at: number) {
    const r = this.r;
    const card = r.pick(this.cards);
    const type = r.pick(["DEPOSIT", "DEPOSIT", "CREATE", "RETURN", "FREEZE"]);
    const cur = r.chance(0.9) ? "USD" : "EUR";
    const st = r.pick(["S", "S", "S", "S", "P", "F"]);
    const o: Op = {
      operateRecordId: this.digits(),
      clientRequestId: this.id("cr-"),
      cardId: card,
      type,
      status: st,
      operateTime: at,
      feeList: [],
    };
    if (type !== "FREEZE") {
      o.amount = r.money(20, 500);
      o.currency = cur;
      if (r.chance(0.6))
        o.feeList.push({
          feeType: type === "CREATE" ? "CREATE" : "DEPOSIT",
          feeAmount: r.money(0, 5),
          feeCurrency: cur,
        });
      if (r.chance(0.1))
        o.feeList.push({ feeType: "CREATE", feeAmount: r.money(0, 3), feeCurrency: cur });
    }
    this.setOp(o);
    if (st === "S") this.cashLegs(o);
    return o.operateRecordId;
  }

  /** A settled operation's items as the provider_items view signs them: amount, fees by type. */
  opItems(o: Op) {
    if (o.status !== "S" || !o.amount || num(o.amount) === 0) return { op: 0, fees: [] };
    const sign = o.type === "RETURN" || o.type === "TERMINATE" ? 1 : -1;
    const fees = new Map<string, number>();
    for (const f of o.feeList) {
      const key = `${f.feeType}|${f.feeCurrency}`;
      fees.set(key, (fees.get(key) ?? 0) + num(f.feeAmount));
    }
    return {
      op: sign * num(o.amount),
      fees: [...fees.values()].filter((v) => v !== 0).map((v) => -v),
    };
  }

  /** The account postings of a settled operation (one in ten missing, one in ten 1.00 off). */
  cashLegs(o: Op) {
    const r = this.r;
    if (r.chance(0.1)) return;
    const items = this.opItems(o);
    const bad = r.chance(0.1) ? 1 : 0;
    const posting = (amount: number, business: string) =>
      this.setPosting({
        acntTxnId: this.digits(),
        serviceId: o.operateRecordId,
        currency: o.currency ?? "USD",
        balanceType: "AVAILABLE",
        amount: fmt(amount),
        balanceUpdDate: new Date(o.operateTime + HOUR).toISOString(),
        businessType: business,
      });
    posting(items.op + bad, `CARD_${o.type}`);
    for (const v of items.fees) posting(v, "FEE");
  }

  topUp(at: number) {
    const r = this.r;
    const sid = this.digits();
    for (let i = r.int(1, 2); i > 0; i--)
      this.setPosting({
        acntTxnId: this.digits(),
        serviceId: sid,
        currency: r.chance(0.85) ? "USD" : "EUR",
        balanceType: "AVAILABLE",
        amount: r.money(100, 2000),
        balanceUpdDate: new Date(at).toISOString(),
        businessType: "TOP_UP",
      });
    return sid;
  }

  // ---- ledger

  /** An entry booked as given. */
  entry(e: NewEntry) {
    const full: Entry = { entry_id: this.id("E"), fee_type: null, card_id: null, ...e };
    this.ledger.set(full.entry_id, full);
  }

  /** An entry booking a record's card amount (a hold, an unsettled clearing, a reversal). */
  cardAmountEntry(t: Txn, at: number) {
    this.entry({
      kind: "card_transaction",
      provider_ref: String(t.txnOrderNo),
      amount: fmt(-num(t.cardAmount)),
      currency: String(t.cardCurrency),
      booked_at: at,
    });
  }

  /** A discrepancy applied to an entry about to be booked, or undefined: not booked. */
  distort(e: Entry, card?: string): Entry | undefined {
    const r = this.r;
    const x = r.next();
    if (x < 0.07) return undefined;
    if (x < 0.15)
      return { ...e, amount: fmt(num(e.amount) + (r.pick([-1, 1]) * r.int(1, 99)) / 100) };
    if (x < 0.19) return { ...e, amount: fmt(num(e.amount) + r.pick([-1, 1]) * r.int(3, 20)) };
    if (x < 0.22) return { ...e, currency: e.currency === "USD" ? "EUR" : "USD" };
    if (x < 0.28 && e.kind === "card_transaction")
      return {
        ...e,
        provider_ref: `X-${e.provider_ref}`,
        card_id: card ?? e.card_id,
        amount: fmt(num(e.amount) + r.int(-50, 50) / 100),
      };
    return e;
  }

  /** An entry with the odd discrepancy (and now and then a duplicate of it). */
  book(e: NewEntry, card?: string) {
    const base: Entry = { entry_id: this.id("E"), fee_type: null, card_id: null, ...e };
    if (card && this.r.chance(0.7)) base.card_id = card;
    const d = this.distort(base, card);
    if (!d) return;
    this.ledger.set(d.entry_id, d);
    if (this.r.chance(0.05)) {
      const duplicate = { ...d, entry_id: this.id("E") };
      this.ledger.set(duplicate.entry_id, duplicate);
    }
  }

  bookedAt(at: number) {
    return at + this.r.int(-12, 48) * HOUR;
  }

  /** Books an authorization's chain in a random style: per record, per chain, net of refunds. */
  bookChain(a: string) {
    const r = this.r;
    const auth = this.txns.all.get(a);
    if (!auth) return;
    const card = auth.cardId as string;
    const members = this.txnsWhere((t) => t.originTxnOrderNo === a);
    const clearings = members.filter((t) => t.txnType === "CLEARING");
    const settledItems = members.filter(isSettledItem);
    const style = r.pick(["record", "record", "record", "chain", "net"]);
    const at = this.bookedAt(Number(auth.transactionTime));
    const bookItem = (key: unknown, amount: number, currency: unknown, bookedAt = at) =>
      this.book(
        {
          kind: "card_transaction",
          provider_ref: String(key),
          amount: fmt(amount),
          currency: String(currency),
          booked_at: bookedAt,
        },
        card,
      );
    if (auth.txnStatus === "P" && r.chance(0.3)) {
      // A pending authorization booked (a status question), sometimes twice.
      this.cardAmountEntry(auth, at);
      if (r.chance(0.3)) this.cardAmountEntry(auth, at);
    }
    const sum = (ts: Txn[]) => ts.reduce((s, t) => s + bookedAmount(t), 0);
    if (style === "chain" && settledItems.length > 0) {
      bookItem(a, sum(settledItems), settledItems[0]?.settleCurrency);
    } else {
      for (const k of clearings) {
        const refunds = members.filter((t) => t.originTxnOrderNoForRefund === k.txnOrderNo);
        const settledRefunds = refunds.filter((t) => t.txnStatus === "S");
        if (k.txnStatus !== "S") {
          if (r.chance(0.25)) this.cardAmountEntry(k, at);
          continue;
        }
        if (style === "net" && settledRefunds.length > 0) {
          bookItem(k.txnOrderNo, bookedAmount(k) + sum(settledRefunds), k.settleCurrency);
        } else {
          bookItem(k.txnOrderNo, bookedAmount(k), k.settleCurrency);
          for (const rf of settledRefunds)
            bookItem(
              rf.txnOrderNo,
              bookedAmount(rf),
              rf.settleCurrency,
              this.bookedAt(Number(rf.transactionTime)),
            );
        }
      }
    }
    for (const k of clearings) this.bookFees(k);
    // Reversals booked by mistake now and then.
    for (const v of members.filter((t) => t.txnType === "REVERSAL"))
      if (r.chance(0.2)) this.cardAmountEntry(v, at);
  }

  /** A settled clearing's fee lines, one in ten missing or 0.10 off, a few unknown. */
  bookFees(k: Txn) {
    if (k.txnStatus !== "S") return;
    const r = this.r;
    const fees: [string, unknown, unknown][] = [
      ["TRANSACTION", k.transactionFee, k.transactionFeeCurrency],
      ["EXCHANGE", k.exchangeFee, k.exchangeFeeCurrency],
    ];
    const fee = (type: string, amount: number, currency: unknown) =>
      this.entry({
        kind: "fee",
        fee_type: type,
        provider_ref: String(k.txnOrderNo),
        amount: fmt(amount),
        currency: String(currency ?? k.settleCurrency),
        booked_at: this.bookedAt(Number(k.transactionTime)),
      });
    for (const [type, amount, cur] of fees) {
      if (amount === undefined || num(amount) === 0) continue;
      if (r.chance(0.1)) continue;
      const wrong = r.chance(0.1) ? 0.1 : 0;
      fee(type, -num(amount) - wrong, cur);
    }
    if (r.chance(0.03)) fee("CROSS_BORDER", -0.3, k.settleCurrency);
  }

  /** Books an operation under its clientRequestId or operateRecordId, net or gross of fees. */
  bookOperation(id: string) {
    const o = this.ops.all.get(id);
    if (!o) return;
    const r = this.r;
    const key = r.chance(0.6) ? o.clientRequestId : o.operateRecordId;
    const at = this.bookedAt(o.operateTime);
    const sign = o.type === "RETURN" || o.type === "TERMINATE" ? 1 : -1;
    if (!o.amount) {
      if (r.chance(0.15))
        this.entry({
          kind: "card_operation",
          provider_ref: key,
          amount: "-1.00",
          currency: "USD",
          booked_at: at,
        });
      return;
    }
    const fees = o.feeList.filter((f) => num(f.feeAmount) !== 0);
    const gross = fees.length > 0 && r.chance(0.35);
    const feeSum = fees.reduce((s, f) => s + num(f.feeAmount), 0);
    const amount = sign * num(o.amount) - (gross ? feeSum : 0);
    this.book({
      kind: "card_operation",
      provider_ref: key,
      amount: fmt(amount),
      currency: o.currency ?? "USD",
      booked_at: at,
    });
    if (!gross)
      for (const f of fees) {
        if (r.chance(0.1)) continue;
        const fkey = r.chance(0.8) ? key : r.pick([o.clientRequestId, o.operateRecordId]);
        this.entry({
          kind: "fee",
          fee_type: f.feeType,
          provider_ref: fkey,
          amount: fmt(-num(f.feeAmount) - (r.chance(0.08) ? 0.5 : 0)),
          currency: f.feeCurrency,
          booked_at: at,
        });
      }
  }

  /** Books a top-up's postings, one entry per currency. */
  bookTopUp(sid: string) {
    const by = new Map<string, number>();
    let at = 0;
    for (const p of this.postings.values())
      if (p.serviceId === sid) {
        by.set(p.currency, (by.get(p.currency) ?? 0) + num(p.amount));
        at = Date.parse(p.balanceUpdDate);
      }
    for (const [cur, sum] of by) {
      const e: Entry = {
        entry_id: this.id("E"),
        kind: "account",
        provider_ref: sid,
        amount: fmt(sum),
        currency: cur,
        booked_at: this.bookedAt(at),
        fee_type: null,
        card_id: null,
      };
      const d = this.distort(e);
      if (d) this.ledger.set(d.entry_id, d);
    }
  }

  /** An entry on nothing the provider has (missing at the provider), near as-of sometimes. */
  strayEntry() {
    const r = this.r;
    const kind = r.pick(["card_transaction", "card_operation", "account"] as const);
    const ref = kind === "account" ? this.digits() : this.id("NOPE-");
    this.entry({
      kind,
      provider_ref: ref,
      amount: fmt(-num(r.money(1, 60))),
      currency: "USD",
      booked_at: this.asOf - r.int(0, 96) * HOUR,
      card_id: kind === "card_transaction" && r.chance(0.5) ? r.pick(this.cards) : null,
    });
  }

  // ---- building and changing

  initial() {
    const r = this.r;
    const start = this.asOf - 10 * DAY;
    const someTime = () => start + r.int(0, 9 * 24) * HOUR;
    const chains: string[] = [];
    for (let i = r.int(5, 12); i > 0; i--) chains.push(this.chain(someTime()));
    for (let i = r.int(0, 3); i > 0; i--) this.oddTxn(someTime());
    const ops: string[] = [];
    for (let i = r.int(2, 6); i > 0; i--) ops.push(this.operation(someTime()));
    const tops: string[] = [];
    for (let i = r.int(0, 3); i > 0; i--) tops.push(this.topUp(someTime()));
    for (const a of chains) this.bookChain(a);
    for (const o of ops) this.bookOperation(o);
    for (const s of tops) this.bookTopUp(s);
    for (let i = r.int(0, 2); i > 0; i--) this.strayEntry();
    for (const t of this.txns.values())
      if (t.txnType === "VERIFICATION" && r.chance(0.3))
        this.entry({
          kind: "card_transaction",
          provider_ref: String(t.txnOrderNo),
          amount: "-1.00",
          currency: "USD",
          booked_at: Number(t.transactionTime),
        });
  }

  /** One random change, and a line in `log` saying what it was. */
  change() {
    const r = this.r;
    const note = (s: string) => this.log.push(s);
    /** Something new at the provider, booked in the ledger seven times in ten. */
    const added = (what: string, key: string, book: (key: string) => void) => {
      if (r.chance(0.7)) book(key);
      note(`new ${what} ${key}`);
    };
    switch (r.int(0, 21)) {
      case 0:
        added("chain", this.chain(this.asOf - r.int(1, 72) * HOUR), (a) => this.bookChain(a));
        break;
      case 1: {
        const t = r.pickAny(
          this.txnsWhere((t) => t.txnStatus === "P" && t.txnType !== "AUTHORIZATION"),
        );
        if (!t) break;
        const to = r.chance(0.8) ? "S" : "F";
        const nt: Txn = { ...t, txnStatus: to };
        if (to === "S")
          Object.assign(
            nt,
            this.settled(String(t.cardAmount), String(t.cardCurrency), Number(t.transactionTime)),
          );
        this.setTxn(nt);
        note(`${t.txnOrderNo} P→${to}`);
        break;
      }
      case 2: {
        const t = r.pickAny(
          this.txnsWhere((t) => t.txnStatus === "P" && t.txnType === "AUTHORIZATION"),
        );
        if (!t) break;
        const to = r.chance(0.7) ? "S" : "F";
        this.setTxn({ ...t, txnStatus: to });
        note(`authorization ${t.txnOrderNo} P→${to}`);
        if (to === "S" && r.chance(0.6)) {
          const k = this.clearing(
            String(t.txnOrderNo),
            String(t.cardId),
            String(t.cardCurrency),
            String(t.cardAmount),
            this.asOf - r.int(1, 30) * HOUR,
            "S",
          );
          note(`  clearing ${k}`);
          if (r.chance(0.5)) this.bookChain(String(t.txnOrderNo));
        }
        break;
      }
      case 3: {
        const t = r.pickAny(this.txnsWhere(isSettledItem));
        if (!t) break;
        this.setTxn({ ...t, txnStatus: "F" });
        note(`${t.txnOrderNo} S→F`);
        break;
      }
      case 4: {
        const t = r.pickAny(this.txnsWhere(isSettledItem));
        if (!t) break;
        const amt = r.chance(0.5)
          ? fmt(num(t.settleAmount) + (r.pick([-1, 1]) * r.int(1, 80)) / 100)
          : r.money(2, 60);
        this.setTxn({ ...t, settleAmount: amt });
        note(`${t.txnOrderNo} amount ${t.settleAmount}→${amt}`);
        break;
      }
      case 5: {
        const t = r.pickAny(this.txnsWhere((t) => t.txnStatus === "S" && t.txnType === "CLEARING"));
        if (!t) break;
        const rf = this.refund(String(t.txnOrderNo));
        note(`refund ${rf} of ${t.txnOrderNo}`);
        const x = rf && r.chance(0.5) ? this.txns.all.get(rf) : undefined;
        if (x?.txnStatus === "S")
          this.book(
            {
              kind: "card_transaction",
              provider_ref: String(rf),
              amount: String(x.settleAmount),
              currency: String(x.settleCurrency),
              booked_at: this.asOf - HOUR,
            },
            String(x.cardId),
          );
        break;
      }
      case 6: {
        const t = r.pickAny(this.txnsWhere(isSettledItem));
        if (!t) break;
        this.book(
          {
            kind: "card_transaction",
            provider_ref: String(t.txnOrderNo),
            amount: fmt(bookedAmount(t)),
            currency: String(t.settleCurrency),
            booked_at: this.bookedAt(Number(t.transactionTime)),
          },
          String(t.cardId),
        );
        note(`entry added on ${t.txnOrderNo}`);
        break;
      }
      case 7:
      case 8: {
        const e = r.pickAny(this.ledger.values());
        if (!e) break;
        const how = r.int(0, 5);
        const ne = { ...e };
        if (how === 0) ne.amount = fmt(num(e.amount) + (r.pick([-1, 1]) * r.int(1, 150)) / 100);
        else if (how === 1) {
          // Corrected to the provider's amount where it books a settled record.
          const t = this.txns.all.get(e.provider_ref);
          ne.amount = t?.settleAmount ? fmt(bookedAmount(t)) : fmt(-num(e.amount));
        } else if (how === 2) ne.currency = e.currency === "USD" ? "EUR" : "USD";
        else if (how === 3 && e.kind === "card_transaction") {
          const t = r.pick(this.txns.values());
          ne.provider_ref = e.provider_ref.startsWith("X-")
            ? e.provider_ref.slice(2)
            : String(t.txnOrderNo);
        } else if (how === 4) ne.booked_at = e.booked_at + r.int(-72, 72) * HOUR;
        else ne.card_id = ne.card_id ? null : r.pick(this.cards);
        this.ledger.set(ne.entry_id, ne);
        note(`entry ${e.entry_id} updated (${how})`);
        break;
      }
      case 9: {
        const id = r.pickAny(this.ledger.keys());
        if (!id) break;
        this.ledger.delete(id);
        note(`entry ${id} deleted`);
        break;
      }
      case 10: {
        const dt = r.pick([HOUR, 6 * HOUR, DAY, 2 * DAY, 3 * DAY, 8 * DAY]);
        this.asOf += dt;
        note(`time +${dt / HOUR}h`);
        break;
      }
      case 11: {
        // A provider record deleted (by a merchant's script).
        const k = r.chance(0.6) ? r.pick(this.txns.keys()) : undefined;
        if (k) {
          this.txns.delete(k);
          note(`card transaction ${k} deleted`);
        } else if (this.postings.all.size > 0 && r.chance(0.5)) {
          const p = r.pick(this.postings.keys());
          this.postings.delete(p);
          note(`posting ${p} deleted`);
        } else if (this.ops.all.size > 0) {
          const o = r.pick(this.ops.keys());
          this.ops.delete(o);
          note(`operation ${o} deleted`);
        }
        break;
      }
      case 12:
        added("operation", this.operation(this.asOf - r.int(1, 60) * HOUR), (id) =>
          this.bookOperation(id),
        );
        break;
      case 13: {
        const o = r.pickAny(this.ops.values().filter((o) => o.status === "P"));
        if (!o) break;
        const to = r.chance(0.8) ? "S" : "F";
        const no = { ...o, status: to };
        this.setOp(no);
        if (to === "S") this.cashLegs(no);
        note(`operation ${o.operateRecordId} P→${to}`);
        break;
      }
      case 14: {
        const o = r.pickAny(this.ops.values().filter((o) => o.status === "S"));
        if (!o) break;
        if (r.chance(0.5)) {
          this.setOp({ ...o, status: "F" });
          note(`operation ${o.operateRecordId} S→F`);
        } else {
          const feeList = o.feeList.length
            ? []
            : [{ feeType: "DEPOSIT", feeAmount: r.money(0, 4), feeCurrency: o.currency ?? "USD" }];
          this.setOp({ ...o, feeList });
          note(`operation ${o.operateRecordId} fees changed`);
        }
        break;
      }
      case 15:
        added("top-up", this.topUp(this.asOf - r.int(1, 48) * HOUR), (sid) => this.bookTopUp(sid));
        break;
      case 16: {
        this.strayEntry();
        note("stray entry");
        break;
      }
      case 17: {
        // A cash-leg posting added to a settled operation.
        const o = r.pickAny(this.ops.values().filter((o) => o.status === "S"));
        if (!o) break;
        this.setPosting({
          acntTxnId: this.digits(),
          serviceId: o.operateRecordId,
          currency: o.currency ?? "USD",
          balanceType: "AVAILABLE",
          amount: r.chance(0.5) ? "-1.00" : "1.00",
          balanceUpdDate: new Date(this.asOf - HOUR).toISOString(),
          businessType: "FEE",
        });
        note(`posting added to operation ${o.operateRecordId}`);
        break;
      }
      case 18: {
        // A settled record's time or currency corrected (the tolerant window, currency reach).
        const t = r.pickAny(this.txnsWhere(isSettledItem));
        if (!t) break;
        this.setTxn(
          r.chance(0.5)
            ? { ...t, settleTime: Number(t.settleTime) + r.pick([-1, 1]) * r.int(1, 6) * DAY }
            : { ...t, settleCurrency: t.settleCurrency === "USD" ? "EUR" : "USD" },
        );
        note(`${t.txnOrderNo} time or currency corrected`);
        break;
      }
      case 19: {
        // An entry under a wrong key near a clearing (a tolerant candidate).
        const t = r.pickAny(this.txnsWhere((t) => t.txnStatus === "S" && t.txnType === "CLEARING"));
        if (!t) break;
        this.entry({
          kind: "card_transaction",
          provider_ref: this.id("X-"),
          amount: fmt(-num(t.settleAmount) + r.int(-90, 90) / 100),
          currency: String(t.settleCurrency),
          booked_at: Number(t.settleTime) + r.int(-30, 30) * HOUR,
          card_id: String(t.cardId),
        });
        note(`wrong-key entry near ${t.txnOrderNo}`);
        break;
      }
      case 20: {
        // An operation retried under the same clientRequestId.
        const o = r.pickAny(this.ops.values());
        if (!o) break;
        const id = this.digits();
        this.setOp({
          ...o,
          operateRecordId: id,
          status: r.pick(["S", "F", "P"]),
          operateTime: o.operateTime + HOUR,
        });
        note(`operation ${id} retries ${o.clientRequestId}`);
        break;
      }
      case 21: {
        // An operation's fee charged in a second currency, or its amount corrected.
        const o = r.pickAny(this.ops.values().filter((o) => o.amount));
        if (!o) break;
        const other = o.currency === "USD" ? "EUR" : "USD";
        this.setOp(
          r.chance(0.5)
            ? {
                ...o,
                feeList: [
                  ...o.feeList,
                  { feeType: "DEPOSIT", feeAmount: r.money(0, 3), feeCurrency: other },
                ],
              }
            : { ...o, amount: r.money(20, 500) },
        );
        note(`operation ${o.operateRecordId} fee currency or amount changed`);
        break;
      }
    }
  }

  /** Writes what changed since the last call: records and entries stored, deleted ones deleted. */
  async store(db: Db) {
    const txns = this.txns.take();
    const ops = this.ops.take();
    const postings = this.postings.take();
    const entries = this.ledger.take();
    await storeProviderRecords(
      db,
      { txns: txns.changed, ops: ops.changed, postings: postings.changed },
      this.asOf,
    );
    const deleteKeys = async (table: string, column: string, keys: string[]) => {
      if (keys.length > 0)
        await queryText(db, `DELETE FROM ${table} WHERE ${column} IN (${sqlList(keys)})`);
    };
    await deleteKeys("card_transactions", "txn_order_no", txns.deleted);
    await deleteKeys("operate_record_fees", "operate_record_id", ops.deleted);
    await deleteKeys("operate_records", "operate_record_id", ops.deleted);
    await deleteKeys("account_transactions", "acnt_txn_id", postings.deleted);
    await deleteKeys("ledger_entries", "entry_id", entries.deleted);
    await storeEntries(db, entries.changed);
  }
}

// ---------------------------------------------------------------- one seed

/** A run's options: every stream synced (as the tests store them), no share too large. */
const options = (asOf: number) => ({
  asOf: new Date(asOf),
  maxSyncLagMs: 365 * DAY,
  maxScopeShare: 1,
});

interface Divergence {
  seed: number;
  step: number;
  /** The rows only one run's stored results hold, per table. */
  rows: ReturnType<typeof storedDifference>;
  /** Both runs' figures, where they differ. */
  figures?: { incremental: unknown; full: unknown };
  /** The changes made, step by step. */
  log: string[];
}

/**
 * One seed's world through STEPS steps of changes: the first divergence, if any, and how many
 * of the runs compared were incremental (not a reuse of the last results or a full run).
 */
async function runSeed(db: Db, seed: number) {
  await emptyDatabase(db);
  const r = new Rng(seed);
  const world = new World(r, Date.parse("2026-05-13T00:00:00Z"));
  world.initial();
  // A world may book no record exactly: a stored pair lets every run build on the last.
  await storeUnrelatedPairs(db, 1, world.asOf - 9 * DAY);
  await world.store(db);
  await runMatch(db, { ...options(world.asOf), full: true });
  let incrementalRuns = 0;
  for (let step = 1; step <= STEPS; step++) {
    world.log.push(`-- step ${step}`);
    for (let i = r.int(1, 3); i > 0; i--) world.change();
    await world.store(db);
    const incremental = await runMatch(db, options(world.asOf));
    if (!incremental.incremental && !incremental.reusedRunId)
      world.log.push("  (the run matched everything)");
    if (step < STEPS && !r.chance(0.5)) continue;
    if (incremental.incremental) incrementalRuns++;
    const after = await storedResults(db);
    const full = await runMatch(db, { ...options(world.asOf), full: true });
    const rows = storedDifference(after, await storedResults(db));
    const figures = { incremental: runFigures(incremental), full: runFigures(full) };
    const sameFigures = isDeepStrictEqual(figures.incremental, figures.full);
    if (Object.keys(rows).length > 0 || !sameFigures) {
      const divergence: Divergence = { seed, step, rows, log: world.log };
      if (!sameFigures) divergence.figures = figures;
      return { divergence, incrementalRuns };
    }
  }
  return { divergence: undefined, incrementalRuns };
}

// ---------------------------------------------------------------- the tests

const AS_OF = Date.parse("2026-06-01T00:00:00Z");
const CARD = "9100000000000000001";

describe.runIf(testBackends().includes("postgres"))("incremental matching on Postgres", () => {
  let db: Db;
  useTestDatabase("postgres", (opened) => {
    db = opened.db;
  });

  const seeds = Array.from({ length: SEEDS }, (_, i) => START + i);
  describe(`equals a full run on random worlds and changes (seeds ${seeds[0]}..${seeds.at(-1)})`, () => {
    it.each(seeds)(
      "seed %i",
      async (seed) => {
        const { divergence, incrementalRuns } = await runSeed(db, seed);
        let dumped = "";
        if (divergence && process.env.FUZZ_DUMP) {
          const file = join(tmpdir(), `incremental-fuzz-seed-${seed}.json`);
          writeFileSync(file, JSON.stringify(divergence, null, 2));
          dumped = ` (written to ${file})`;
        }
        expect(divergence, `seed ${seed} differs from a full run${dumped}`).toBeUndefined();
        // A seed whose compared runs all reused results or matched everything tested nothing.
        expect(incrementalRuns, "compared runs that were incremental").toBeGreaterThan(0);
      },
      60_000,
    );
  });

  describe("equals a full run after the smallest changes that once made them differ", () => {
    type Records = Parameters<typeof storeProviderRecords>[1];
    /**
     * An empty database holding twelve unrelated exact pairs (the few changes a test makes stay
     * a small share of the records: too many and an incremental run matches everything), then
     * `batches` of provider records (stored one after the other, so a later batch's rows follow
     * in the table) and `entries`, matched in full at AS_OF.
     */
    async function start(batches: Records[], entries: Entry[]) {
      await emptyDatabase(db);
      await storeUnrelatedPairs(db, 12, AS_OF - 9 * DAY);
      for (const batch of batches) await storeProviderRecords(db, batch, AS_OF);
      await storeEntries(db, entries);
      await runMatch(db, { ...options(AS_OF), full: true });
    }
    /** An incremental run an hour after AS_OF, then a full one: the rows that differ. */
    async function incrementalVsFull() {
      const incremental = await runMatch(db, options(AS_OF + HOUR));
      expect(incremental.incremental).toBe(true);
      const after = await storedResults(db);
      await runMatch(db, { ...options(AS_OF + HOUR), full: true });
      return storedDifference(after, await storedResults(db));
    }
    const entry = (
      entry_id: string,
      kind: Entry["kind"],
      provider_ref: string,
      amount: string,
      booked_at = AS_OF - 3 * DAY,
    ): Entry => ({
      entry_id,
      kind,
      provider_ref,
      amount,
      currency: "USD",
      booked_at,
      fee_type: null,
      card_id: null,
    });
    const clearing = (txnOrderNo: string, originTxnOrderNo: string, amount: string) =>
      settledClearing({ cardId: CARD, txnOrderNo, originTxnOrderNo, amount, at: AS_OF - 9 * DAY });
    const authorization = (txnOrderNo: string, txnStatus: string, cardAmount: string) => ({
      cardId: CARD,
      cardCurrency: "USD",
      txnType: "AUTHORIZATION",
      txnStatus,
      txnOrderNo,
      transactionTime: AS_OF - 10 * DAY,
      cardAmount,
    });
    /** A 100.00 deposit under clientRequestId cr-1. */
    const deposit = (operateRecordId: string, status: string, daysAgo = 5) => ({
      operateRecordId,
      clientRequestId: "cr-1",
      cardId: CARD,
      type: "DEPOSIT",
      status,
      amount: "100.00",
      currency: "USD",
      operateTime: AS_OF - daysAgo * DAY,
      feeList: [],
    });
    const EARLIER = "1953712585351420001";
    const LATER = "1953712585351420002";

    // An entry on a clientRequestId that two operations share (a retry), one pending and one
    // failed: its status question takes the latest operation (the highest operateRecordId),
    // never the one a scan meets first. The table holds the later one first; an incremental
    // run's copy of it holds them in id order.
    it("status mismatch: the latest of two operations under one clientRequestId", async () => {
      await start(
        [{ ops: [deposit(LATER, "F", 4)] }, { ops: [deposit(EARLIER, "P")] }],
        [entry("E1", "card_operation", "cr-1", "-100.00")],
      );
      await queryText(
        db,
        "UPDATE ledger_entries SET booked_at = booked_at + interval '1 hour' WHERE entry_id = 'E1'",
      );
      expect(await incrementalVsFull()).toEqual({});
    });

    // Two settled operations under one clientRequestId, the later one's cash leg posted and the
    // earlier one's missing: each operation is measured against its own items (not both
    // operations' items, -200.00 for a 100.00 deposit), and the clientRequestId's one break
    // shows the latest mismatching operation, whichever row comes first.
    it("cash leg mismatch: each of two operations under one clientRequestId", async () => {
      await start(
        [
          {
            ops: [deposit(LATER, "S")],
            postings: [
              {
                acntTxnId: "1953712585351410002",
                serviceId: LATER,
                currency: "USD",
                balanceType: "AVAILABLE",
                amount: "-100.00",
                balanceUpdDate: new Date(AS_OF - 5 * DAY).toISOString(),
                businessType: "CARD_DEPOSIT",
              },
            ],
          },
          { ops: [deposit(EARLIER, "S")] },
        ],
        [],
      );
      const [cashBreak] = await queryText<{ detail: string }>(
        db,
        "SELECT detail FROM breaks WHERE break_key = 'p:cash:cr-1'",
      );
      expect(cashBreak?.detail).toBe(
        "operation cr-1 (S): account postings sum to 0, the operation and its fees to -100.00",
      );
      // An entry that takes cr-1 into the scope and changes nothing about it.
      await storeEntries(db, [entry("E2", "card_transaction", "cr-1", "-1.00", AS_OF - 20 * DAY)]);
      expect(await incrementalVsFull()).toEqual({});
    });

    // A pending authorization's stale hold is its amount less what its clearings used: when a
    // clearing is deleted, the authorization it named (which no row names any more) is matched
    // again and holds the clearing's amount once more.
    it("stale authorization: a deleted clearing's amount is held again", async () => {
      await start(
        [{ txns: [authorization("A1", "P", "30.00"), clearing("K1", "A1", "10.00")] }],
        [entry("E1", "card_transaction", "K1", "-10.00")],
      );
      await queryText(db, "DELETE FROM card_transactions WHERE txn_order_no = 'K1'");
      expect(await incrementalVsFull()).toEqual({});
    });

    // Finance's decisions on proposals (passes/decided-proposals.ts): E1–K1 confirmed, E2–K2
    // rejected; then K1's amount changes (the confirmation lapses: proposed again) and K2's
    // entry is corrected by a cent (the rejection lapses too). Each step, incremental = full.
    it("decided proposals: confirmed, rejected, then both lapse", async () => {
      const near = (entry_id: string, amount: string): Entry => ({
        ...entry(entry_id, "card_transaction", `X-${entry_id}`, amount, AS_OF - 9 * DAY),
        card_id: CARD,
      });
      const settled = (txnOrderNo: string, amount: string) =>
        settledClearing({ cardId: CARD, txnOrderNo, amount, at: AS_OF - 9 * DAY });
      await start(
        [{ txns: [settled("K1", "50.00"), settled("K2", "70.50")] }],
        [near("E1", "-50.10"), near("E2", "-70.95")],
      );
      const proposal = async (entryId: string) =>
        (
          await queryText<{ break_id: string }>(
            db,
            `SELECT break_id FROM breaks WHERE class = 'proposed_match' AND status = 'open'
              AND entry_id = '${entryId}'`,
          )
        )[0]?.break_id as string;
      await decideProposal(db, { breakId: await proposal("E1"), decision: "confirm", actor: "a" });
      await decideProposal(db, {
        breakId: await proposal("E2"),
        decision: "reject",
        actor: "a",
        reason: "another purchase",
      });
      expect(await incrementalVsFull()).toEqual({});
      await queryText(
        db,
        `UPDATE card_transactions SET card_amount = 50.20, settle_amount = 50.20
          WHERE txn_order_no = 'K1'`,
      );
      await queryText(db, "UPDATE ledger_entries SET amount = -70.96 WHERE entry_id = 'E2'");
      expect(await incrementalVsFull()).toEqual({});
    });

    // Finance's manual matches (passes/manual-matches.ts): E1 and E2 matched with K1 by hand;
    // an entry near them changes (the scope takes the stored group), then K1's amount changes
    // (the match lapses: the breaks come back); a second match loses its entry (deleted) and
    // lapses too. Each step, incremental = full.
    it("manual matches: applied, kept, then lapsed by a change and by a deletion", async () => {
      const loose = (entry_id: string, amount: string): Entry => ({
        ...entry(entry_id, "card_transaction", `X-${entry_id}`, amount, AS_OF - 9 * DAY),
        card_id: CARD,
      });
      const settled = (txnOrderNo: string, amount: string) =>
        settledClearing({ cardId: CARD, txnOrderNo, amount, at: AS_OF - 9 * DAY });
      await start(
        [{ txns: [settled("K1", "50.00"), settled("K2", "7.25")] }],
        [loose("E1", "-30.00"), loose("E2", "-20.00"), loose("E3", "-7.25"), loose("E4", "-1.00")],
      );
      const by = { actor: "a", reason: "split booking" };
      await matchManually(db, { entries: ["E1", "E2"], records: ["K1"], ...by });
      await matchManually(db, { entries: ["E3"], records: ["K2"], ...by });
      expect(await incrementalVsFull()).toEqual({});
      const manualGroups = () =>
        queryText(db, "SELECT count(*)::int AS n FROM match_groups WHERE pass = 'manual'");
      expect(await manualGroups()).toEqual([{ n: 2 }]);
      await queryText(db, "UPDATE ledger_entries SET amount = -1.50 WHERE entry_id = 'E4'");
      expect(await incrementalVsFull()).toEqual({});
      expect(await manualGroups()).toEqual([{ n: 2 }]);
      await queryText(
        db,
        `UPDATE card_transactions SET card_amount = 50.20, settle_amount = 50.20
          WHERE txn_order_no = 'K1'`,
      );
      expect(await incrementalVsFull()).toEqual({});
      await queryText(db, "DELETE FROM ledger_entries WHERE entry_id = 'E3'");
      expect(await incrementalVsFull()).toEqual({});
      const states = await queryText(db, "SELECT status FROM manual_matches ORDER BY id");
      expect(states).toEqual([{ status: "lapsed" }, { status: "lapsed" }]);
    });

    // An authorization its clearing used in full holds nothing: no break, though its own status
    // is still P (it raised "has held 0.00 USD"). Once the clearing is gone it holds again.
    it("stale authorization: none for one its clearing used in full", async () => {
      const staleBreaks = async () =>
        (
          await queryText<{ detail: string }>(
            db,
            "SELECT detail FROM breaks WHERE class = 'stale_authorization' AND status <> 'resolved'",
          )
        ).map((b) => b.detail);
      await start(
        [{ txns: [authorization("A1", "P", "30.00"), clearing("K1", "A1", "30.00")] }],
        [entry("E1", "card_transaction", "K1", "-30.00")],
      );
      const stillHeld = async () =>
        await queryText(db, "SELECT txn_order_no, open_hold FROM finance_stale_authorizations");
      expect(await staleBreaks()).toEqual([]);
      expect(await stillHeld()).toEqual([]);
      await queryText(db, "DELETE FROM card_transactions WHERE txn_order_no = 'K1'");
      expect(await incrementalVsFull()).toEqual({});
      expect(await staleBreaks()).toEqual([
        expect.stringMatching(/^authorization A1 has held 30\.00 USD/),
      ]);
      expect(await stillHeld()).toEqual([{ txn_order_no: "A1", open_hold: "30.00" }]);
    });

    // An entry on an authorization whose clearing is booked per record is a duplicate of the
    // clearing's; once the clearing is deleted it books an authorization that moves no money.
    it("duplicate entry on an authorization: its deleted clearing makes it no-money", async () => {
      await start(
        [{ txns: [authorization("A1", "S", "10.00"), clearing("K1", "A1", "10.00")] }],
        [
          entry("E1", "card_transaction", "K1", "-10.00"),
          entry("EA", "card_transaction", "A1", "-10.00"),
        ],
      );
      await queryText(db, "DELETE FROM card_transactions WHERE txn_order_no = 'K1'");
      expect(await incrementalVsFull()).toEqual({});
    });

    // The same rule for an UPDATE: a clearing moved from one authorization to another (its
    // origin corrected) leaves the first one's hold whole again, although the clearing's new
    // row names only the second.
    it("stale authorization: a clearing moved to another authorization", async () => {
      await start(
        [
          {
            txns: [
              authorization("A1", "P", "30.00"),
              authorization("A2", "P", "30.00"),
              clearing("K1", "A1", "10.00"),
            ],
          },
        ],
        [entry("E1", "card_transaction", "K1", "-10.00")],
      );
      await queryText(
        db,
        "UPDATE card_transactions SET origin_txn_order_no = 'A2' WHERE txn_order_no = 'K1'",
      );
      expect(await incrementalVsFull()).toEqual({});
    });
  });
});
