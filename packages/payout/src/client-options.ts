/** The options a PayoutClient is built with: where the service is, the secret key, and core's transport settings. */
import type { Environment, TransportConfig } from "@merchantkit/core";

export interface PayoutClientOptions
  extends Pick<
    TransportConfig,
    "timeoutMs" | "maxRetries" | "retryDelay" | "hooks" | "logger" | "includeBodies" | "fetch"
  > {
  /** `"sandbox"`, `"production"`, `{ origin }` (the merchantkit sandbox, a proxy) or base URLs per area. */
  environment: Environment;
  /** The merchant secret key that signs every request (the payout `sign`). */
  secretKey: string;
  /**
   * Filled into every request that leaves it out. Without it, every call must pass
   * `merchantNo` itself.
   */
  merchantNo?: string | undefined;
}
