/**
 * The transaction chains a card goes through, each started at its authorization time: the
 * authorization (or verification) is made at once, later steps are queued on the card's
 * simulation with realistic delays (clearing mostly within 36 h, some days late; refunds days
 * after the clearing). Returns how many records the chain makes up to the clock's now, so the
 * generator hits the requested number of records exactly.
 */
import { divideRounded } from "@merchantkit/core";
import { convertMinor } from "../issuing/fx-rates";
import type { Acceptor } from "../issuing/merchants";
import type { CardSim, Chain, Effect, EffectKind } from "./card-simulation";
import { type ChainKind, DECLINE_REASONS } from "./generator-pools";

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/** Share of transactions at an acceptor charging in another currency than the card's. */
const FOREIGN_SHARE = 0.18;

export function pickAcceptor(sim: CardSim): Acceptor {
  const { rnd, local, acceptors } = sim.env;
  const home = local.get(sim.card.currency);
  const list = home && home.length > 0 && rnd() >= FOREIGN_SHARE ? home : acceptors;
  return list[Math.floor(rnd() * list.length)] as Acceptor;
}

/** A purchase amount in `currency` minor units: mostly small, a long tail of large ones. */
function drawUnits(sim: CardSim, currency: string): bigint {
  const r = sim.env.rnd();
  const usd =
    r < 0.6
      ? sim.between(300, 6_000)
      : r < 0.9
        ? sim.between(6_000, 30_000)
        : sim.between(30_000, 200_000);
  const units = convertMinor(BigInt(usd), "USD", currency);
  return units > 0n ? units : 1n;
}

/** `units × pct / 100`, at least 1. */
function share(units: bigint, pct: number): bigint {
  const part = divideRounded(units * BigInt(pct), 100n, "halfUp");
  return part > 0n ? part : 1n;
}

function clearingDelay(sim: CardSim): number {
  const r = sim.env.rnd();
  if (r < 0.85) return sim.between(HOUR, 36 * HOUR);
  if (r < 0.95) return sim.between(36 * HOUR, 72 * HOUR);
  return sim.between(3 * DAY, 10 * DAY);
}

function effect(
  sim: CardSim,
  chain: Chain,
  kind: EffectKind,
  t: number,
  units: bigint,
  flag = false,
  source?: Effect,
): Effect {
  return {
    t: Math.min(t, sim.cap),
    kind,
    chain,
    units,
    flag,
    source,
    settleAt: -1,
    made: undefined,
    madeCardUnits: 0n,
  };
}

/** Adds a top-up deposit before `at` when the card could not carry `need` (card units). */
function ensureFunds(sim: CardSim, at: number, need: bigint): void {
  if (sim.bal >= need) return;
  const { settleDelayMs } = sim.env;
  const terms = sim.card.terms;
  const unit = 10n ** BigInt(sim.scale);
  let amount = ((need - sim.bal) / (100n * unit) + 1n) * 100n * unit;
  // Merchants top cards up in round chunks well above the need, not cent by cent.
  amount += BigInt(sim.between(5, 50)) * 100n * unit;
  if (amount > terms.maxUnits) amount = terms.maxUnits;
  const latest = at - settleDelayMs - 1_000;
  const when = Math.max(sim.lastT + 1, latest - sim.between(5 * MIN, 6 * HOUR));
  sim.op("DEPOSIT", Math.min(when, latest), "S", amount);
}

/** Starts a chain of `kind` at `at`; returns the records it makes up to now. */
export function runChain(sim: CardSim, kind: ChainKind, at: number): number {
  const { rnd, now } = sim.env;
  const acceptor = pickAcceptor(sim);
  if (kind === "VERIFY") {
    sim.verify(at, acceptor, rnd() < 0.05);
    return 1;
  }
  if (kind === "DECLINE") {
    const reason = DECLINE_REASONS[Math.floor(rnd() * DECLINE_REASONS.length)] as string;
    if (reason === "Insufficient funds") {
      // Declined for a reason that holds: more than the card has, in the card's currency.
      const over = sim.bal + BigInt(sim.between(100, 50_000));
      sim.decline(at, acceptor, over, sim.card.currency, reason);
    } else {
      sim.decline(at, acceptor, drawUnits(sim, acceptor.currency), acceptor.currency, reason);
    }
    return 1;
  }
  const currency = acceptor.currency;
  const units = drawUnits(sim, currency);
  const inCard = convertMinor(units, currency, sim.card.currency);
  ensureFunds(sim, at, inCard + inCard / 4n + 10n ** BigInt(sim.scale + 1));
  const chain = sim.authorize(at, acceptor, units, currency);
  if (rnd() < 0.02) {
    // A 3DS one-time password sent to the cardholder just before the authorization.
    sim.env.out.threeDs.push({
      auth: chain.auth,
      sendTime: at - sim.between(20_000, 90_000),
      otp: String(sim.between(100_000, 999_999)),
    });
  }
  const steps = planSteps(sim, kind, chain, at, units);
  let made = 1;
  for (const step of steps) {
    if (step.kind === "refund" && step.t > now) continue;
    if (step.t <= now && step.kind !== "refundSettle") made++;
    sim.queue(step);
  }
  return made;
}

function planSteps(
  sim: CardSim,
  kind: ChainKind,
  chain: Chain,
  at: number,
  units: bigint,
): Effect[] {
  const { rnd } = sim.env;
  const steps: Effect[] = [];
  const tc = at + clearingDelay(sim);
  switch (kind) {
    case "STALE":
      return steps;
    case "SIMPLE": {
      // Most clear for the authorized amount; some differ (tips, fuel, hotel incidentals).
      let amount = units;
      if (rnd() < 0.12) {
        const pct = sim.between(80, 121);
        amount = share(units, pct === 100 ? 105 : pct);
      }
      steps.push(effect(sim, chain, "clear", tc, amount, true));
      return steps;
    }
    case "PARTIAL": {
      const parts = units >= 3n && rnd() < 0.5 ? 3 : 2;
      let left = units;
      let t = tc;
      for (let i = 1; i < parts && left > 1n; i++) {
        const part = share(units, sim.between(25, 46));
        if (part >= left) break;
        steps.push(effect(sim, chain, "clear", t, part, false));
        left -= part;
        t += sim.between(HOUR, 3 * DAY);
      }
      // Some shipments never come: the last clearing is smaller and the rest is released.
      if (rnd() < 0.1 && left > 1n) left = share(left, sim.between(50, 91));
      steps.push(effect(sim, chain, "clear", t, left, true));
      return steps;
    }
    case "REVERSAL":
      steps.push(effect(sim, chain, "reverse", at + sim.between(10 * MIN, 48 * HOUR), units, true));
      return steps;
    case "REVERSAL_PARTIAL": {
      const part = units > 1n ? share(units, sim.between(10, 51)) : 0n;
      if (part <= 0n || part >= units) {
        steps.push(
          effect(sim, chain, "reverse", at + sim.between(10 * MIN, 48 * HOUR), units, true),
        );
        return steps;
      }
      const tr = at + sim.between(10 * MIN, 24 * HOUR);
      steps.push(effect(sim, chain, "reverse", tr, part, false));
      steps.push(
        effect(sim, chain, "clear", tr + sim.between(HOUR, 36 * HOUR), units - part, true),
      );
      return steps;
    }
    case "REFUND":
    case "REFUND2": {
      const clear = effect(sim, chain, "clear", tc, units, true);
      steps.push(clear);
      const first = kind === "REFUND" && rnd() < 0.6 ? units : share(units, sim.between(20, 51));
      let t = tc + sim.between(DAY, 20 * DAY);
      steps.push(refundStep(sim, chain, clear, t, first));
      if (kind === "REFUND2" && units - first > 1n) {
        t += sim.between(HOUR, 5 * DAY);
        steps.push(refundStep(sim, chain, clear, t, share(units - first, sim.between(20, 81))));
      }
      return steps;
    }
    default:
      return steps;
  }
}

function refundStep(sim: CardSim, chain: Chain, clear: Effect, t: number, units: bigint): Effect {
  const step = effect(sim, chain, "refund", t, units, sim.env.rnd() < 0.02, clear);
  step.settleAt = Math.min(step.t + sim.between(DAY, 5 * DAY), sim.cap);
  return step;
}
