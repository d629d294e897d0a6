/** The options an AccountClient is built with: where the service is, the apikey, and core's transport settings. */
import type { ClientOptions } from "@merchantkit/core";

export interface AccountClientOptions extends ClientOptions {
  /** The account area's key, sent as the `apikey` header on every attempt. */
  apiKey: string;
  /** `x-timestamp` in milliseconds (13 digits, the default) or seconds (10 digits). */
  timestampUnit?: "s" | "ms" | undefined;
  /**
   * Advanced: the clock `x-timestamp` is read from, in epoch ms (default `Date.now`). It is
   * read on every attempt; tests move it, and a host with a known clock offset can correct it.
   */
  now?: (() => number) | undefined;
}
