/**
 * Polling /profit/query until a share or reversal leaves "processing". The result notification
 * says the same without polling; this is for callers without a public endpoint, and for
 * checking after a missed notification.
 */
import { profitQuery } from "@merchantkit/contract";
import { type RequestOptions, type WaitOptions, waitUntilFinal } from "@merchantkit/core";
import type { FinalProfitShareResult, FinalProfitShareState, ProfitShareResult } from "./types";

/** How long and how often to query (core's WaitOptions; the first pause defaults to 2 s here). */
export type WaitForResultOptions = WaitOptions;

const FINAL_STATES: readonly string[] = [
  "success",
  "failed",
  "partial",
] satisfies FinalProfitShareState[];

/**
 * True for the documented final states. An unknown state counts as not final, so a new
 * in-between state never ends a wait early (a new final one runs into the timeout instead).
 */
export function isFinalProfitShareState(state: string): state is FinalProfitShareState {
  return FINAL_STATES.includes(state);
}

export async function waitForFinal(
  query: (options: RequestOptions) => PromiseLike<ProfitShareResult>,
  opts: WaitForResultOptions = {},
): Promise<FinalProfitShareResult> {
  let reference = "";
  const result = await waitUntilFinal(
    {
      read: async (options) => {
        const answer = await query(options);
        reference = answer.profitReference;
        return answer;
      },
      state: (r) => r.state,
      isFinal: (r) => isFinalProfitShareState(r.state),
      get what() {
        return `The profit share ${reference}`;
      },
      path: profitQuery.path,
    },
    { intervalMs: 2_000, ...opts },
  );
  return result as FinalProfitShareResult;
}
