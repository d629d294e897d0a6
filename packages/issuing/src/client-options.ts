/** The options an IssuingClient is built with: where the service is, the ApiKey, the merchant, and core's transport settings. */
import type { ClientOptions } from "@merchantkit/core";

export interface IssuingClientOptions extends ClientOptions {
  /** The issuing key, sent as the `ApiKey` header. */
  apiKey: string;
  /**
   * The merchant number cardholder calls carry in their body (card calls carry none). Without
   * it, each cardholder call must pass `merchantNo` itself.
   */
  merchantNo?: string | undefined;
}
