/** The delivery log's records: one per pushed notification, with every attempt made. */

export type DeliveryKind = "issuing" | "payout" | "profitShare";

export type DeliveryState = "pending" | "delivered" | "failed" | "undeliverable";

export interface DeliveryAttempt {
  /** Virtual clock time of the attempt (ms); an issuing push's x-timestamp is its seconds. */
  at: number;
  httpStatus?: number;
  respCode?: string;
  /** Network error, timeout, or why the answer did not count as an acknowledgement. */
  error?: string;
}

export interface Delivery {
  /** The sandbox's own delivery id ("d1", "d2"...): redeliver takes it. */
  id: string;
  kind: DeliveryKind;
  /** Undefined when no URL is configured (state "undeliverable"). */
  url: string | undefined;
  /** Issuing: the event's request_id; payout: the payout's requestId; profit share: profitReference. */
  requestId: string;
  /** Issuing: event_type; "payout.result" or "profitShare.result" for notifications. */
  eventType: string;
  /** The exact body text sent on every attempt. */
  body: string;
  attempts: DeliveryAttempt[];
  state: DeliveryState;
  /** Set on a second copy made by the duplicateNext fault or by redeliver. */
  duplicateOf?: string;
  /** Held by the reorderNext fault until the batch is complete. */
  held?: boolean;
}

/** What the outbox hands to the pusher. */
export interface PushInput {
  kind: DeliveryKind;
  url: string | undefined;
  requestId: string;
  eventType: string;
  body: string;
}
