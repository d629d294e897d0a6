// Amounts as finance reads them: thousands separators, at least two decimals, the currency
// after — from the decimal text, never through a float.

/** "-1234567.5" → "-1,234,567.50"; more decimals than two are kept as they are. */
export function groupDigits(amount: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (!m) return amount;
  const [, sign, whole = "0", fraction = ""] = m;
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${sign}${grouped}.${fraction.padEnd(2, "0")}`;
}

/** An amount with its currency: "1,250.50 EUR" (the currency left out when unknown). */
export function moneyText(amount: string, currency: string | null | undefined): string {
  return currency ? `${groupDigits(amount)} ${currency}` : groupDigits(amount);
}

/**
 * A break's detail as the passes wrote it ("has held 14861.56 HKD since …"), each amount
 * followed by its currency printed as the amount columns print it ("14,861.56 HKD"). Numbers
 * without a currency after them (ids, dates, fee types) are left as they are.
 */
export function detailText(detail: string): string {
  return detail.replace(
    /(?<![\w.,])(-?\d+(?:\.\d+)?) ([A-Z]{3})\b/g,
    (_, amount: string, currency: string) => moneyText(amount, currency),
  );
}

/**
 * An amount as groupDigits prints it, back to decimal text: "-1,250.50" → "-1250.50". Commas
 * must be groupDigits's (between groups of three digits, a point and decimals after); undefined
 * otherwise: "1,25" or "1.250,50" could be read two ways. Text without commas is answered as is.
 */
export function ungroupDigits(text: string): string | undefined {
  if (!text.includes(",")) return text;
  return /^-?\d{1,3}(?:,\d{3})+\.\d+$/.test(text) ? text.replaceAll(",", "") : undefined;
}
