/** The options a ProfitShareClient is built with. */
import type { ClientOptions } from "@merchantkit/core";

export interface ProfitShareClientOptions extends ClientOptions {
  /** The merchant secret key that signs every request (and, with verifyResponseSign, checks answers). */
  secretKey: string;
  /** Filled into every request that leaves it out. Without it, every call must pass `merchantNo`. */
  merchantNo?: string | undefined;
  /**
   * Check the `sign` of every answer's data with the secret key (a SignatureError when it is
   * missing or does not match). Off by default: the provider's docs show a sign in the
   * answers but do not say how it is computed, so the rule assumed here (the request rule
   * over the answer's data fields) is unconfirmed against the live service.
   */
  verifyResponseSign?: boolean | undefined;
}
