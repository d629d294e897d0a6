/** The options a PayoutClient is built with: where the service is, the secret key, and core's transport settings. */
import type { ClientOptions } from "@merchantkit/core";

export interface PayoutClientOptions extends ClientOptions {
  /** The merchant secret key that signs every request (the payout `sign`). */
  secretKey: string;
  /**
   * Filled into every request that leaves it out. Without it, every call must pass
   * `merchantNo` itself.
   */
  merchantNo?: string | undefined;
}
