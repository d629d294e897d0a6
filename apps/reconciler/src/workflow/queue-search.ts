// What a person types to find breaks, read one way for the CLI (`breaks list --search`, `export`)
// and the console's search box: an amount the way `breaks list` and `show` print it (shownAmount,
// which `breaks accept --amount` takes too) is also looked for as an amount.
import * as v from "valibot";
import { ungroupDigits } from "../money-text";
import type { QueueSearch } from "./break-queries";

const SHOWN_RULE =
  'must be AMOUNT [CURRENCY] as breaks list or show prints it ("1,250.50 EUR", "-99.9"): commas only between groups of three digits, with a point and the decimals after ("1,25" or "1.250,50" could be read two ways)';

// "1,250.50 EUR" or "1250.50", as `breaks list` and `show` print an amount; the decimal itself
// is checked with the input (core's rule).
export const shownAmount = v.pipe(
  v.string("needs the amount shown"),
  v.regex(/^\s*\S+(\s+[A-Za-z]{3})?\s*$/, SHOWN_RULE),
  v.transform((text) => {
    const [amount, currency] = text.trim().split(/\s+/);
    return { amount: ungroupDigits(amount as string), currency: currency?.toUpperCase() };
  }),
  v.check((shown) => shown.amount !== undefined, SHOWN_RULE),
  v.transform((shown) => shown as { amount: string; currency: string | undefined }),
);

/**
 * What a search looks for: the text within ids and cards, and the amount when the text reads as
 * one the way breaks list prints it ("1,710.47 HKD", "1710.47": shownAmount, as accept --amount).
 */
export function queueSearch(text: string): QueueSearch {
  const shown = v.safeParse(shownAmount, text);
  const amount =
    shown.success && /^-?\d+(\.\d+)?$/.test(shown.output.amount) ? shown.output : undefined;
  return { text, amount: amount?.amount, currency: amount?.currency };
}
