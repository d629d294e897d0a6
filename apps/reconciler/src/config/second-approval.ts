// RECONCILER_SECOND_APPROVAL_ABOVE: the amount above which an accept or a write-off from the
// console needs a second, different approver (maker-checker, workflow/approvals.ts). Amounts are
// decimal text in the break's own currency (its amount at stake, breaks.amount, in
// breaks.currency), as the CLI and the console print them: `1000` applies to every currency;
// `USD=1000,EUR=900,JPY=150000,*=1000` sets one per ISO 4217 code, `*` for the others (a list
// without `*` leaves the other currencies single-approver). Unset: no second approval.
import { isDecimalString } from "@merchantkit/core";
import { ConfigError } from "./load-config";

export const SECOND_APPROVAL_SETTING = "RECONCILER_SECOND_APPROVAL_ABOVE";

export interface SecondApprovalLimits {
  /** The limit per currency code (decimal text, not negative). */
  byCurrency: Readonly<Record<string, string>>;
  /** The limit of every other currency (and of a break without one); undefined: none. */
  other: string | undefined;
}

const limitOf = (text: string, where: string): string => {
  const amount = text.trim();
  if (!isDecimalString(amount) || amount.startsWith("-"))
    throw new ConfigError([
      `${SECOND_APPROVAL_SETTING}: ${where} must be an amount (decimal, not negative), not "${amount}"`,
    ]);
  return amount;
};

/** The setting's limits; undefined when unset or empty (no second approval). */
export function secondApprovalLimits(value: string | undefined): SecondApprovalLimits | undefined {
  const text = (value ?? "").trim();
  if (text === "") return undefined;
  if (!text.includes("=")) return { byCurrency: {}, other: limitOf(text, "the amount") };
  const byCurrency: Record<string, string> = {};
  let other: string | undefined;
  for (const part of text.split(",")) {
    const [code = "", amount, ...rest] = part.split("=");
    const currency = code.trim().toUpperCase();
    if (amount === undefined || rest.length > 0 || !/^([A-Z]{3}|\*)$/.test(currency))
      throw new ConfigError([
        `${SECOND_APPROVAL_SETTING}: each entry must be CODE=AMOUNT (an ISO 4217 code or *), not "${part.trim()}"`,
      ]);
    if (currency === "*" ? other !== undefined : currency in byCurrency)
      throw new ConfigError([`${SECOND_APPROVAL_SETTING}: ${currency} is given twice`]);
    if (currency === "*") other = limitOf(amount, currency);
    else byCurrency[currency] = limitOf(amount, currency);
  }
  return { byCurrency, other };
}

/** The limit of a break in `currency` (null: none), undefined when it needs no second approval. */
export function limitFor(
  limits: SecondApprovalLimits | undefined,
  currency: string | null,
): string | undefined {
  if (!limits) return undefined;
  return (currency !== null ? limits.byCurrency[currency] : undefined) ?? limits.other;
}
