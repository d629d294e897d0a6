/**
 * How areas push notifications without knowing how delivery works: they hand over the
 * payload in app form; the webhook pusher encodes it with the contract's codec, signs it
 * (HMAC for issuing events, the SHA-256 `sign` rule for payout and profit-share results),
 * delivers, retries per the service's rule and logs every attempt.
 */
export type IssuingEventType = "issuing.cardOperateEvent" | "issuing.cardTransactionEvent";

export interface Outbox {
  /** An issuing event to the configured issuing callback URL. `data` is in app form. */
  issuingEvent(eventType: IssuingEventType, data: Record<string, unknown>): void;
  /** A payout result notification (app form, without sign) to the payout callback URL. */
  payoutResult(body: Record<string, unknown>): void;
  /** A profit-share result notification to `url` (urlCallback) or the configured default. */
  profitShareResult(body: Record<string, unknown>, url: string | undefined): void;
}
