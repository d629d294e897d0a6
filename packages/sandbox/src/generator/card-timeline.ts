/**
 * One card from creation to now: the CREATE operation with its initial deposit, transaction
 * chains at random times until the card's share of records is used, top-ups and returns in
 * between, possibly a freeze window (with a duplicate FREEZE that fails) and a termination
 * (returning what is left, with a duplicate TERMINATE that fails), all in time order.
 */
import type { Card } from "../issuing/issuing-records";
import { CardSim, type SimEnv } from "./card-simulation";
import { runChain } from "./chain-plans";
import { drawChain } from "./generator-pools";

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

interface FreezeWindow {
  at: number;
  until: number;
  duplicate: boolean;
  done: boolean;
}

/** `n` times in [from, to], ascending. */
function drawTimes(sim: CardSim, n: number, from: number, to: number): Float64Array {
  const times = new Float64Array(n);
  for (let i = 0; i < n; i++) times[i] = sim.between(from, to);
  return times.sort();
}

function runFreeze(sim: CardSim, w: FreezeWindow, t: number): number {
  const delay = sim.env.settleDelayMs;
  sim.drain(w.at);
  sim.op("FREEZE", w.at, "S");
  // A second FREEZE sent before the first settled: accepted, then failed at settlement.
  if (w.duplicate && delay >= 2)
    sim.op("FREEZE", w.at + Math.floor(delay / 2), "F", undefined, "card is already frozen");
  sim.drain(w.until);
  sim.op("UNFREEZE", w.until, "S");
  w.done = true;
  sim.lastT = w.until + delay;
  return Math.max(t, w.until + delay + sim.between(1_000, 10 * MIN));
}

/** Now and then the merchant takes money back off the card; rarely more than it holds (F). */
function maybeReturn(sim: CardSim, t: number): void {
  const r = sim.env.rnd();
  if (r >= 0.011) return;
  const delay = sim.env.settleDelayMs;
  const latest = t - delay - 1_000;
  if (latest <= sim.lastT + 1) return;
  const at = sim.between(Math.max(sim.lastT + 1, latest - 2 * HOUR), latest);
  const unit = 10n ** BigInt(sim.scale);
  if (r < 0.01) {
    if (sim.bal <= 0n) return;
    const units = ((sim.bal * BigInt(sim.between(10, 41))) / 100n / unit) * unit;
    if (units >= sim.card.terms.minUnits) sim.op("RETURN", at, "S", units);
  } else {
    const units = (sim.bal > 0n ? sim.bal : 0n) + BigInt(sim.between(1, 500)) * unit;
    sim.op("RETURN", at, "F", units, "card balance not enough");
  }
}

export function runCard(env: SimEnv, card: Card, budget: number, to: number): void {
  const { rnd, settleDelayMs: delay } = env;
  let terminateAt: number | undefined;
  if (rnd() < 0.03 && to - card.createdAt > 4 * DAY) {
    const earliest = Math.max(card.createdAt + 3 * DAY, to - 5 * DAY);
    // Early enough for a duplicate TERMINATE (sent delay/2 later) to be final by `to` too.
    terminateAt = Math.floor(earliest + rnd() * Math.max(0, to - 2 * delay - 1_000 - earliest));
  }
  const sim = new CardSim(
    env,
    card,
    terminateAt === undefined ? Number.POSITIVE_INFINITY : terminateAt - MIN,
  );
  const unit = 10n ** BigInt(sim.scale);
  sim.op("CREATE", card.createdAt, "S", BigInt(sim.between(2, 41)) * 50n * unit);
  sim.lastT = card.createdAt + delay;

  const chainEnd = terminateAt === undefined ? to : terminateAt - HOUR;
  const first = card.createdAt + delay + MIN;
  let freeze: FreezeWindow | undefined;
  if (rnd() < 0.12 && chainEnd - first > 3 * DAY) {
    const at = sim.between(first + DAY, chainEnd - 2 * DAY);
    freeze = { at, until: at + sim.between(HOUR, 24 * HOUR), duplicate: rnd() < 0.1, done: false };
  }

  let remaining = budget;
  let times = drawTimes(sim, Math.ceil(remaining / 1.9) + 1, first, chainEnd);
  let i = 0;
  while (remaining > 0) {
    if (i >= times.length) {
      times = drawTimes(sim, Math.ceil(remaining / 1.5) + 1, Math.max(first, sim.lastT), chainEnd);
      i = 0;
    }
    let t = Math.max(times[i++] as number, sim.lastT + 1);
    if (freeze && !freeze.done && t >= freeze.at) t = runFreeze(sim, freeze, t);
    t = Math.min(t, Math.max(chainEnd, sim.lastT + 1));
    sim.drain(t);
    maybeReturn(sim, t);
    remaining -= runChain(sim, drawChain(remaining, rnd()), t);
    sim.lastT = t;
  }
  if (freeze && !freeze.done) runFreeze(sim, freeze, freeze.at);

  if (terminateAt !== undefined) {
    sim.drain(terminateAt);
    sim.failOpen(terminateAt);
    const rest = sim.bal > 0n ? sim.bal : 0n;
    sim.op("TERMINATE", terminateAt, "S", rest);
    sim.bal -= rest;
    card.status = "TERMINATED";
    if (rnd() < 0.1 && delay >= 2) {
      sim.op(
        "TERMINATE",
        terminateAt + Math.floor(delay / 2),
        "F",
        undefined,
        "card is terminated",
      );
    }
  }
  sim.finish();
}
