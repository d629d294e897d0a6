/**
 * The seeded data generator: cardholders, cards with their operations (creation, top-ups,
 * returns, freezes, terminations, some failing), card transactions in realistic chains (most
 * authorizations cleared, some late, partial or for another amount, reversals, refunds,
 * verifications, declines, FX with fees) and 3DS deliveries, spread over `days` days ending at
 * the clock's now, with every money movement posted to the merchant ledger.
 *
 * Same seed and same clock → the same records. Built for size (a million transactions in
 * seconds): records are created directly in their final state with their history timestamps,
 * no event is pushed for the past, and only the tail still open at now (clearings, reversals
 * and refund settlements due later) is scheduled on the runtime's clock.
 */
import { fromMinorUnits } from "@merchantkit/core";

import type { IssuingContext } from "../issuing/issuing-context";
import type { Cardholder } from "../issuing/issuing-records";
import type { IssuingState } from "../issuing/issuing-state";
import { ACCEPTORS, type Acceptor } from "../issuing/merchants";
import { currencyScale } from "../issuing/money-units";
import { newCard } from "../issuing/new-card";
import type { ProductTerms } from "../issuing/products";
import { clear, failTxn, reverse, settleTxn } from "../issuing/txn-lifecycle";
import type { Runtime } from "../runtime/area";
import { seededRandom } from "../runtime/ids";
import { SandboxError } from "../runtime/sandbox-error";
import type { Effect, SimEnv, SimOutput } from "./card-simulation";
import { runCard } from "./card-timeline";
import { FIRST_NAMES, LAST_NAMES, NATIONALITIES } from "./generator-pools";
import { loadOperations, loadThreeDs, loadTransactions } from "./load-generated";

export interface GenerateOptions {
  seed: number;
  /** Cards to create (cardholders get one or two each). */
  cards: number;
  /** Card transaction records existing at the clock's now (later steps are scheduled). */
  cardTransactions: number;
  days: number;
  /** Start of the period (epoch ms); default now − days. The period never ends after now. */
  startAt?: number | undefined;
  /** Card currencies to issue in (products); default all. */
  currencies?: readonly string[] | undefined;
}

export interface GenerateSummary {
  seed: number;
  from: number;
  to: number;
  cardholders: number;
  cards: number;
  operateRecords: number;
  cardTransactions: number;
  threeDsDeliveries: number;
  accountTransactions: number;
  /** Authorizations still P at now, and the later steps scheduled on the clock. */
  pendingAuthorizations: number;
  scheduled: number;
}

const DAY = 86_400_000;
const CURRENCY_WEIGHT: Record<string, number> = { USD: 50, EUR: 20, SGD: 15, HKD: 15 };

export function generateData(
  runtime: Runtime,
  state: IssuingState,
  options: GenerateOptions,
): GenerateSummary {
  const now = runtime.clock.now();
  const span = options.days * DAY;
  const from = options.startAt ?? now - span;
  const to = Math.min(from + span, now);
  if (to - from < DAY)
    throw new RangeError("the period must end at least a day after it starts, before now");
  const products = [...state.products.values()].filter(
    (t) => !options.currencies || options.currencies.includes(t.product.currency),
  );
  if (products.length === 0) throw new RangeError("no card product in the requested currencies");
  const rnd = seededRandom((options.seed ^ 0x2545f491) >>> 0);
  const merchantNo = runtime.config.merchantNo;
  const tag = `g${options.seed}-${state.cardholders.size}`;

  const holders: Cardholder[] = [];
  const holderCount = Math.ceil(options.cards / 1.6);
  for (let i = 0; i < holderCount; i++) {
    const firstName = FIRST_NAMES[Math.floor(rnd() * FIRST_NAMES.length)] as string;
    const lastName = LAST_NAMES[Math.floor(rnd() * LAST_NAMES.length)] as string;
    const holder: Cardholder = {
      cardholderId: runtime.ids.next(),
      merchantNo,
      firstName,
      lastName,
      email: `${firstName}.${lastName}.${tag}-${i}@example.com`.toLowerCase(),
      nationality: NATIONALITIES[Math.floor(rnd() * NATIONALITIES.length)],
    };
    state.addCardholder(holder);
    holders.push(holder);
  }

  const out: SimOutput = {
    txns: [],
    ops: [],
    threeDs: [],
    tail: [],
    holds: new Map(),
    consumed: new Map(),
    refunded: new Map(),
  };
  const local = new Map<string, Acceptor[]>();
  for (const a of ACCEPTORS) local.set(a.currency, [...(local.get(a.currency) ?? []), a]);
  const env: SimEnv = {
    rnd,
    now,
    settleDelayMs: runtime.config.settleDelayMs,
    clientRequestPrefix: `${tag}-op-`,
    local,
    acceptors: ACCEPTORS,
    out,
  };

  const budgets = splitBudget(options.cardTransactions, options.cards, rnd);
  const pickProduct = productPicker(products);
  for (let k = 0; k < options.cards; k++) {
    const holder = holders[k % holderCount] as Cardholder;
    const terms = pickProduct(rnd());
    const early = rnd() < 0.7;
    const createdAt = Math.floor(from + rnd() * (to - from) * (early ? 0.1 : 0.8));
    const card = newCard(runtime.ids, holder, terms, createdAt);
    state.addCard(card);
    runCard(env, card, budgets[k] as number, to);
  }

  const accountTransactions = loadOperations(runtime, state, out.ops);
  loadTransactions(state, out.txns);
  const threeDsDeliveries = loadThreeDs(
    state,
    out.threeDs,
    runtime.config.webhookUrls.issuing ?? "https://merchant.example/3ds",
  );
  for (const [auth, held] of out.holds) state.holds.set(auth, held);
  for (const [auth, units] of out.consumed) state.consumed.set(auth, units);
  for (const [clearing, units] of out.refunded) state.refunded.set(clearing, units);
  scheduleTail({ runtime, state }, out.tail);

  return {
    seed: options.seed,
    from,
    to,
    cardholders: holderCount,
    cards: options.cards,
    operateRecords: out.ops.length,
    cardTransactions: out.txns.length,
    threeDsDeliveries,
    accountTransactions,
    pendingAuthorizations: out.holds.size,
    scheduled: out.tail.length,
  };
}

/** `total` records over `cards` cards, unevenly (some cards are used far more), summing exactly. */
function splitBudget(total: number, cards: number, rnd: () => number): number[] {
  const weights = Array.from({ length: cards }, () => 0.2 + rnd() * rnd() * 3);
  const sum = weights.reduce((a, b) => a + b, 0);
  const budgets = weights.map((w) => Math.floor((total * w) / sum));
  let left = total - budgets.reduce((a, b) => a + b, 0);
  for (let i = 0; left > 0; i = (i + 1) % cards, left--) budgets[i] = (budgets[i] as number) + 1;
  return budgets;
}

function productPicker(products: ProductTerms[]): (r: number) => ProductTerms {
  const weights = products.map((p) => CURRENCY_WEIGHT[p.product.currency] ?? 10);
  const total = weights.reduce((a, b) => a + b, 0);
  return (r) => {
    let x = r * total;
    for (let i = 0; i < products.length; i++) {
      x -= weights[i] as number;
      if (x < 0) return products[i] as ProductTerms;
    }
    return products[products.length - 1] as ProductTerms;
  };
}

/**
 * The steps still to come at now, on the runtime's clock through the live lifecycle (so they
 * push events when they happen). A step that no longer applies (an admin settled the
 * authorization first) is skipped.
 */
function scheduleTail(ctx: IssuingContext, tail: Effect[]): void {
  const run = (fn: () => void) => () => {
    try {
      fn();
    } catch (error) {
      if (!(error instanceof SandboxError)) throw error;
    }
  };
  for (const e of tail) {
    const auth = e.chain.auth;
    const amount = fromMinorUnits(e.units, currencyScale(auth.transactionCurrency));
    if (e.kind === "clear") {
      ctx.runtime.scheduler.at(
        e.t,
        run(() => {
          if (auth.txnStatus === "P") clear(ctx, auth, { amount, at: e.t, final: e.flag });
        }),
      );
    } else if (e.kind === "reverse") {
      ctx.runtime.scheduler.at(
        e.t,
        run(() => {
          if (auth.txnStatus === "P") reverse(ctx, auth, { amount, at: e.t });
        }),
      );
    } else if (e.kind === "refundSettle") {
      const refund = e.source?.made;
      if (!refund) continue;
      ctx.runtime.scheduler.at(
        e.t,
        run(() => {
          if (refund.txnStatus !== "P") return;
          if (e.flag) failTxn(ctx, refund, e.t, "Refund cancelled");
          else settleTxn(ctx, refund, e.t);
        }),
      );
    }
  }
}
