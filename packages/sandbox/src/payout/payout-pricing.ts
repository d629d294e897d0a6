/**
 * The sandbox's FX rates and payout fees, and the quote of a remittance computed from them with
 * exact BigInt arithmetic. Rates are fixed (deterministic), with many decimals on purpose so
 * clients that round amounts with floats go wrong visibly. Every rounding is explicit:
 * - exchangeRate (target per source unit): 8 decimals, half-up;
 * - chargeFlag Y: the source principal that buys targetAmount is rounded up to the cent;
 * - chargeFlag N: the targetAmount bought by the principal is rounded down to the cent;
 * - each fee component (fixed part converted from USD, percentage part) is rounded half-up to the
 *   cent, then summed.
 * All currencies here have 2 decimals.
 */
import { divideRounded, fromMinorUnits, toMinorUnits } from "@merchantkit/core";

export const AMOUNT_SCALE = 2;
export const RATE_SCALE = 8;
const PER_USD_SCALE = 6;

/** Units of each currency one US dollar buys (6 decimals). */
export const unitsPerUsd: Readonly<Record<string, string>> = {
  USD: "1",
  EUR: "0.921834",
  GBP: "0.787215",
  SGD: "1.345719",
  HKD: "7.812346",
  PHP: "56.412378",
  CNY: "7.245613",
};

/** A payout method's fee: a fixed part quoted in USD plus basis points of the amount. */
export interface FeeRule {
  fixedUsd: string;
  basisPoints: number;
}

export const feeRules: Readonly<Record<string, FeeRule>> = {
  LOCAL: { fixedUsd: "1.00", basisPoints: 10 },
  BANK_TRANSFER: { fixedUsd: "1.00", basisPoints: 10 },
  SWIFT: { fixedUsd: "15.00", basisPoints: 0 },
  E_WALLET: { fixedUsd: "0.50", basisPoints: 50 },
  DIGITAL_WALLET: { fixedUsd: "0.50", basisPoints: 50 },
  CASH_PICKUP: { fixedUsd: "3.00", basisPoints: 50 },
};

/** SWIFT with feeBearing OUR: the payer also covers the intermediary banks' charges. */
export const swiftOurFeeRule: FeeRule = { fixedUsd: "25.00", basisPoints: 0 };

const RATE_ONE = 10n ** BigInt(RATE_SCALE);

/** Target units per source unit, 8 decimals, or undefined when a currency is not traded. */
export function exchangeRate(source: string, target: string): string | undefined {
  const s = unitsPerUsd[source];
  const t = unitsPerUsd[target];
  if (s === undefined || t === undefined) return undefined;
  const units = divideRounded(
    toMinorUnits(t, PER_USD_SCALE) * RATE_ONE,
    toMinorUnits(s, PER_USD_SCALE),
    "halfUp",
  );
  return fromMinorUnits(units, RATE_SCALE);
}

export function feeRuleFor(method: string, feeBearing: string | undefined): FeeRule {
  if (method === "SWIFT" && feeBearing === "OUR") return swiftOurFeeRule;
  return feeRules[method] ?? (feeRules.LOCAL as FeeRule);
}

/** The fee in source-currency cents for an amount of `baseCents` of the source currency. */
export function feeCents(rule: FeeRule, sourceCurrency: string, baseCents: bigint): bigint {
  const usdToSource = toMinorUnits(exchangeRate("USD", sourceCurrency) ?? "1", RATE_SCALE);
  const fixed = divideRounded(
    toMinorUnits(rule.fixedUsd, AMOUNT_SCALE) * usdToSource,
    RATE_ONE,
    "halfUp",
  );
  const percentage = divideRounded(baseCents * BigInt(rule.basisPoints), 10_000n, "halfUp");
  return fixed + percentage;
}

export interface QuoteInput {
  chargeFlag: "Y" | "N";
  sourceAmount?: string | undefined;
  targetAmount?: string | undefined;
  sourceCurrency: string;
  targetCurrency: string;
  paymentMethod: string;
  feeBearing?: string | undefined;
}

export interface Quote {
  /** What leaves the merchant's balance: principal + fee. */
  sourceAmount: string;
  /** The part of sourceAmount that is converted and sent. */
  principal: string;
  targetAmount: string;
  fee: string;
  exchangeRate: string;
}

/** The amounts of a remittance, or a problem to report as a parameter error. */
export function quoteRemittance(input: QuoteInput): Quote | { problem: string } {
  const rateText = exchangeRate(input.sourceCurrency, input.targetCurrency);
  if (rateText === undefined) {
    return {
      problem: `sourceCurrency ${input.sourceCurrency} cannot fund a payout in ${input.targetCurrency}`,
    };
  }
  const rate = toMinorUnits(rateText, RATE_SCALE);
  const rule = feeRuleFor(input.paymentMethod, input.feeBearing);
  let principal: bigint;
  let target: bigint;
  let fee: bigint;
  if (input.chargeFlag === "Y") {
    target = toMinorUnits(input.targetAmount ?? "0", AMOUNT_SCALE);
    principal = divideRounded(target * RATE_ONE, rate, "up");
    fee = feeCents(rule, input.sourceCurrency, principal);
  } else {
    const gross = toMinorUnits(input.sourceAmount ?? "0", AMOUNT_SCALE);
    fee = feeCents(rule, input.sourceCurrency, gross);
    principal = gross - fee;
    if (principal <= 0n) {
      return {
        problem: `sourceAmount ${fromMinorUnits(gross, AMOUNT_SCALE)} does not cover the fee ${fromMinorUnits(fee, AMOUNT_SCALE)} ${input.sourceCurrency}`,
      };
    }
    target = divideRounded(principal * rate, RATE_ONE, "down");
    if (target <= 0n) return { problem: "sourceAmount is too small to convert to targetCurrency" };
  }
  return {
    sourceAmount: fromMinorUnits(principal + fee, AMOUNT_SCALE),
    principal: fromMinorUnits(principal, AMOUNT_SCALE),
    targetAmount: fromMinorUnits(target, AMOUNT_SCALE),
    fee: fromMinorUnits(fee, AMOUNT_SCALE),
    exchangeRate: rateText,
  };
}
