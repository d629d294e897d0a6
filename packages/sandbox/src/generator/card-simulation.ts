/**
 * One card's history, simulated in time order so the card balance is exact at every step:
 * transaction chains (chain-plans.ts) put their later steps (clearings, reversals, refunds,
 * refund settlements) on a small per-card list of effects, applied when the simulation reaches
 * their time, with the same balance rules as the live lifecycle (txn-lifecycle.ts). Records
 * are built directly in their final state; effects after the clock's now are handed to the
 * caller as the "pending tail" to schedule.
 */
import { fromMinorUnits } from "@merchantkit/core";
import { convertMinor } from "../issuing/fx-rates";
import type {
  Card,
  CardTxn,
  OperateRecord,
  OperateType,
  TxnType,
} from "../issuing/issuing-records";
import { CardTxn as Txn } from "../issuing/issuing-records";
import type { Acceptor } from "../issuing/merchants";
import { currencyScale, minUnits } from "../issuing/money-units";
import { operationFees } from "../issuing/operation-money";
import { clearingFees } from "../issuing/txn-fees";

export type EffectKind = "clear" | "reverse" | "refund" | "refundSettle";

/** A later step of a chain. One shape for all kinds (fields unused by a kind stay empty). */
export interface Effect {
  t: number;
  kind: EffectKind;
  chain: Chain;
  /** Transaction-currency units: cleared, reversed or refunded. */
  units: bigint;
  /** clear: the last clearing; reverse: reverses everything left; refundSettle: fails. */
  flag: boolean;
  /** refund: the clearing effect; refundSettle: the refund effect. */
  source: Effect | undefined;
  /** refund: when it settles (-1: never within the plan). */
  settleAt: number;
  made: CardTxn | undefined;
  madeCardUnits: bigint;
}

export interface Chain {
  auth: CardTxn;
  held: bigint;
  consumed: bigint;
}

export interface PendingThreeDs {
  auth: CardTxn;
  sendTime: number;
  otp: string;
}

/** What every card's simulation adds to. */
export interface SimOutput {
  txns: CardTxn[];
  ops: OperateRecord[];
  threeDs: PendingThreeDs[];
  /** Effects after now, to schedule on the runtime (the only records that still change). */
  tail: Effect[];
  holds: Map<CardTxn, bigint>;
  consumed: Map<CardTxn, bigint>;
  refunded: Map<CardTxn, bigint>;
}

export interface SimEnv {
  rnd: () => number;
  now: number;
  settleDelayMs: number;
  clientRequestPrefix: string;
  local: ReadonlyMap<string, readonly Acceptor[]>;
  acceptors: readonly Acceptor[];
  out: SimOutput;
}

const APPROVED = "Approved";

export class CardSim {
  bal = 0n;
  lastT: number;
  readonly pending: Effect[] = [];
  readonly open: Chain[] = [];
  readonly scale: number;

  constructor(
    readonly env: SimEnv,
    readonly card: Card,
    /** Latest time a chain's later steps may have (just before a termination). */
    readonly cap: number,
  ) {
    this.scale = card.terms.scale;
    this.lastT = card.createdAt;
  }

  between(from: number, to: number): number {
    return Math.floor(from + this.env.rnd() * Math.max(0, to - from));
  }

  /** An operation already final: money and status applied as the live lifecycle would at S/F. */
  op(
    type: OperateType,
    at: number,
    status: "S" | "F",
    units?: bigint,
    remark?: string,
  ): OperateRecord {
    const { out, settleDelayMs, clientRequestPrefix } = this.env;
    const record: OperateRecord = {
      seq: out.ops.length,
      operateRecordId: "",
      card: this.card,
      clientRequestId: `${clientRequestPrefix}${out.ops.length}`,
      type,
      status,
      remark,
      amount: units === undefined ? undefined : fromMinorUnits(units, this.scale),
      currency: this.card.currency,
      operateTime: at,
      feeList: status === "S" ? operationFees(this.card, type, units ?? 0n) : [],
      finishTime: at + settleDelayMs,
    };
    out.ops.push(record);
    if (status === "S") {
      if (type === "CREATE" || type === "DEPOSIT") this.bal += units ?? 0n;
      if (type === "RETURN") this.bal -= units ?? 0n;
      if (type === "FREEZE") this.card.status = "FROZEN";
      if (type === "UNFREEZE") this.card.status = "ACTIVE";
    }
    return record;
  }

  /** A transaction record; `seq` is its generation index until the caller sorts them. */
  txn(
    type: TxnType,
    status: "P" | "S" | "F",
    chain: Chain | undefined,
    refundOf: CardTxn | undefined,
    at: number,
    desc: string | undefined,
    units: bigint,
    currency: string,
    cardUnits: bigint,
    merchant: Acceptor,
  ): CardTxn {
    const out = this.env.out;
    const amount = fromMinorUnits(units, currencyScale(currency));
    const inCard =
      currency === this.card.currency && units === cardUnits
        ? amount
        : fromMinorUnits(cardUnits, this.scale);
    const auth = chain?.auth;
    const t = new Txn(
      out.txns.length,
      type,
      status,
      auth,
      refundOf,
      this.card,
      auth ? auth.authTime : at,
      at,
      desc,
      amount,
      currency,
      inCard,
      merchant,
    );
    if (status === "S") t.settleTime = at;
    out.txns.push(t);
    return t;
  }

  authorize(at: number, acceptor: Acceptor, units: bigint, currency: string): Chain {
    const inCard = convertMinor(units, currency, this.card.currency);
    const chain: Chain = { auth: undefined as unknown as CardTxn, held: inCard, consumed: 0n };
    chain.auth = this.txn(
      "AUTHORIZATION",
      "P",
      undefined,
      undefined,
      at,
      APPROVED,
      units,
      currency,
      inCard,
      acceptor,
    );
    this.bal -= inCard;
    this.open.push(chain);
    return chain;
  }

  decline(at: number, acceptor: Acceptor, units: bigint, currency: string, reason: string): void {
    const inCard = convertMinor(units, currency, this.card.currency);
    this.txn(
      "AUTHORIZATION",
      "F",
      undefined,
      undefined,
      at,
      reason,
      units,
      currency,
      inCard,
      acceptor,
    );
  }

  verify(at: number, acceptor: Acceptor, declined: boolean): void {
    const status = declined ? "F" : "S";
    const desc = declined ? "Invalid CVV" : APPROVED;
    this.txn(
      "VERIFICATION",
      status,
      undefined,
      undefined,
      at,
      desc,
      0n,
      acceptor.currency,
      0n,
      acceptor,
    );
  }

  /** Queues a later step, keeping the list in time order (equal times: in queueing order). */
  queue(e: Effect): void {
    const list = this.pending;
    let i = list.length;
    while (i > 0 && (list[i - 1] as Effect).t > e.t) i--;
    list.splice(i, 0, e);
  }

  /** Applies every queued step due at or before `limit`. */
  drain(limit: number): void {
    const list = this.pending;
    while (list.length > 0 && (list[0] as Effect).t <= limit) this.apply(list.shift() as Effect);
  }

  apply(e: Effect): void {
    const chain = e.chain;
    const auth = chain.auth;
    const merchant = auth.merchant as Acceptor;
    const currency = auth.transactionCurrency;
    const out = this.env.out;
    if (e.kind === "clear") {
      const inCard = convertMinor(e.units, currency, this.card.currency);
      const fees = clearingFees(this.card, merchant, currency, inCard);
      const fromHold = minUnits(inCard, chain.held);
      this.bal -= inCard - fromHold + fees.totalUnits;
      chain.held -= fromHold;
      chain.consumed += e.units;
      const rec = this.txn(
        "CLEARING",
        "S",
        chain,
        undefined,
        e.t,
        undefined,
        e.units,
        currency,
        inCard,
        merchant,
      );
      rec.transactionFee = fees.transactionFee;
      rec.crossBorderFee = fees.crossBorderFee;
      rec.exchangeFee = fees.exchangeFee;
      e.made = rec;
      e.madeCardUnits = inCard;
      if (e.flag) this.complete(chain, e.t);
    } else if (e.kind === "reverse") {
      const converted = convertMinor(e.units, currency, this.card.currency);
      const back = e.flag || converted > chain.held ? chain.held : converted;
      this.bal += back;
      chain.held -= back;
      chain.consumed += e.units;
      this.txn(
        "REVERSAL",
        "S",
        chain,
        undefined,
        e.t,
        undefined,
        e.units,
        currency,
        back,
        merchant,
      );
      if (e.flag) this.complete(chain, e.t);
    } else if (e.kind === "refund") {
      const clearing = e.source as Effect;
      const clearingTxn = clearing.made as CardTxn;
      const inCard =
        e.units === clearing.units
          ? clearing.madeCardUnits
          : convertMinor(e.units, currency, this.card.currency);
      e.made = this.txn(
        "REFUND",
        "P",
        chain,
        clearingTxn,
        e.t,
        undefined,
        e.units,
        currency,
        inCard,
        merchant,
      );
      e.madeCardUnits = inCard;
      out.refunded.set(clearingTxn, (out.refunded.get(clearingTxn) ?? 0n) + e.units);
      if (e.settleAt >= 0) {
        this.queue({ ...e, kind: "refundSettle", source: e, t: e.settleAt, made: undefined });
      }
    } else {
      const refund = e.source as Effect;
      const rec = refund.made as CardTxn;
      if (e.flag) {
        rec.txnStatus = "F";
        const clearingTxn = rec.refundOf as CardTxn;
        out.refunded.set(clearingTxn, (out.refunded.get(clearingTxn) ?? 0n) - refund.units);
      } else {
        rec.txnStatus = "S";
        this.bal += refund.madeCardUnits;
      }
      rec.settleTime = e.t;
    }
  }

  complete(chain: Chain, at: number): void {
    this.bal += chain.held;
    chain.held = 0n;
    chain.auth.txnStatus = "S";
    chain.auth.settleTime = at;
  }

  /** At the end: what is still queued goes to the tail; open authorizations keep their hold. */
  finish(): void {
    const { out, now } = this.env;
    this.drain(now);
    for (const e of this.pending) {
      // A refund not created by now is dropped with its settlement (it never existed).
      if (e.kind === "refund") continue;
      if (e.kind === "refundSettle" && !(e.source as Effect).made) continue;
      out.tail.push(e);
    }
    this.pending.length = 0;
    for (const chain of this.open) {
      if (chain.auth.txnStatus !== "P") continue;
      out.holds.set(chain.auth, chain.held);
      if (chain.consumed > 0n) out.consumed.set(chain.auth, chain.consumed);
    }
    this.card.available = this.bal;
  }

  /** Fails the still-open authorizations (termination), giving their holds back. */
  failOpen(at: number): void {
    for (const chain of this.open) {
      if (chain.auth.txnStatus !== "P") continue;
      this.bal += chain.held;
      chain.held = 0n;
      chain.auth.txnStatus = "F";
      chain.auth.authMessageDesc = "Card terminated";
      chain.auth.settleTime = at;
    }
  }
}
