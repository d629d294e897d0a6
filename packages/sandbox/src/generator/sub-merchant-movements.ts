/**
 * Seeded account movements of a platform's sub-merchants: each configured child gets its own
 * postings on its own account — collections credited to its Global Accounts, payouts with their
 * fee under one serviceId, and funding top-ups before a payout it could not cover — spread
 * over a period ending at the clock's now. A child lacking a Global Account in a currency it
 * collects in gets one.
 *
 * Separate from generateData and opt-in, so a sandbox that never calls it (the demo, every
 * parent-only test) has exactly the ids and records it had before. Same seed, same clock and
 * same children → the same movements and ids.
 */
import { fromMinorUnits } from "@merchantkit/core";
import type { GlobalAccounts } from "../account/global-accounts";
import type { Runtime } from "../runtime/area";
import { seededRandom } from "../runtime/ids";
import { topUpIfShort } from "./top-up";

export interface SubMerchantGenerateOptions {
  seed: number;
  /** Movements (serviceIds) per sub-merchant; funding top-ups come on top. */
  movements: number;
  days: number;
  /** Start of the period (epoch ms); default now − days. */
  startAt?: number | undefined;
  /** The sub-merchants to generate for; default every configured child. */
  subMerchants?: readonly string[] | undefined;
}

export interface SubMerchantGenerateSummary {
  from: number;
  to: number;
  /** Per sub-merchant: serviceIds made (movements and top-ups) and postings. */
  subMerchants: Record<string, { serviceIds: number; postings: number }>;
}

const DAY = 86_400_000;
// Collections in USD mostly; payouts leave in the currency the money came in.
const CURRENCIES = [
  ["USD", 0.7],
  ["EUR", 0.3],
] as const;
const PAYOUT_FEE_CENTS = [150n, 500n, 1_500n];

/** A seed of its own per sub-merchant, so one child's movements do not depend on the others. */
function childSeed(seed: number, merchantNo: string): number {
  let h = (seed ^ 0x5bd1e995) >>> 0;
  for (let i = 0; i < merchantNo.length; i++) {
    h = Math.imul(h ^ merchantNo.charCodeAt(i), 0x01000193) >>> 0;
  }
  return h;
}

function pickCurrency(r: number): string {
  let x = r;
  for (const [currency, share] of CURRENCIES) {
    x -= share;
    if (x < 0) return currency;
  }
  return CURRENCIES[0][0];
}

/** Throws RangeError naming the option and the rule on bad input. */
export function generateSubMerchantMovements(
  runtime: Runtime,
  accounts: GlobalAccounts,
  options: SubMerchantGenerateOptions,
): SubMerchantGenerateSummary {
  const { children, merchantNo: parent } = runtime.config;
  const targets = options.subMerchants ?? children;
  for (const [i, child] of targets.entries()) {
    if (child === parent || !children.includes(child)) {
      throw new RangeError(`subMerchants[${i}]: must be a configured child merchant (children)`);
    }
  }
  if (!Number.isInteger(options.movements) || options.movements < 0) {
    throw new RangeError("movements: must be a whole number ≥ 0");
  }
  const now = runtime.clock.now();
  const from = options.startAt ?? now - options.days * DAY;
  const to = Math.min(from + options.days * DAY, now);
  if (to - from < DAY) {
    throw new RangeError("days: the period must end at least a day after it starts, before now");
  }

  const summary: SubMerchantGenerateSummary = { from, to, subMerchants: {} };
  for (const child of targets) {
    const ledger = runtime.ledgers.of(child);
    if (!ledger) continue;
    const before = ledger.transactions.length;
    const serviceIdsBefore = new Set(ledger.transactions.map((t) => t.serviceId)).size;
    const rnd = seededRandom(childSeed(options.seed, child));
    const times = Array.from({ length: options.movements }, () =>
      Math.floor(from + rnd() * (to - from)),
    ).sort((a, b) => a - b);
    const account = (currency: string) =>
      accounts
        .all()
        .find((a) => a.merchantNo === child && a.record.supportCurrencies?.includes(currency)) ??
      accounts.create({ merchantNo: child, currency });
    for (const [k, at] of times.entries()) {
      const currency = pickCurrency(rnd());
      const cents = BigInt(5_000 + Math.floor(rnd() * 500_000));
      const reference = `sm${options.seed}-${child}-${k}`;
      // A payout needs money in; the first movement of a child is always a collection.
      if (k === 0 || rnd() < 0.55) {
        const ga = account(currency);
        ledger.credit({
          serviceId: runtime.ids.next(),
          currency,
          amount: fromMinorUnits(cents, 2),
          businessType: "COLLECTION",
          externalOrderId: reference,
          remark: `collection to ${ga.record.globalAccountNo}`,
          at,
        });
        continue;
      }
      const fee = PAYOUT_FEE_CENTS[Math.floor(rnd() * PAYOUT_FEE_CENTS.length)] as bigint;
      topUpIfShort({ ledger, ids: runtime.ids }, currency, fromMinorUnits(cents + fee, 2), at);
      const posting = { serviceId: runtime.ids.next(), currency, externalOrderId: reference, at };
      ledger.debit({
        ...posting,
        amount: fromMinorUnits(cents, 2),
        businessType: "PAYOUT",
        remark: "sub-merchant payout",
      });
      ledger.debit({
        ...posting,
        amount: fromMinorUnits(fee, 2),
        businessType: "FEE",
        remark: "payout fee",
      });
    }
    summary.subMerchants[child] = {
      serviceIds: new Set(ledger.transactions.map((t) => t.serviceId)).size - serviceIdsBefore,
      postings: ledger.transactions.length - before,
    };
  }
  return summary;
}
