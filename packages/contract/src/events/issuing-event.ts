/** Every documented issuing push, discriminated by event_type. */
// biome-ignore lint/correctness/noUnusedImports: so the .d.ts says JsonNumber, not import("@merchantkit/core").JsonNumber, which the bundled .d.ts loses (scripts/check-pack.ts)
import type { JsonNumber } from "@merchantkit/core";
import * as c from "../codec";
import { withRequestLimits } from "../codec/request-limits";
import { cardOperateEvent } from "./card-operate-event";
import { cardTransactionEvent } from "./card-transaction-event";
import type { unknownIssuingEvent } from "./envelope";

/**
 * A known event. An event_type outside ISSUING_EVENT_TYPES fails here: decode it with
 * unknownIssuingEvent instead and hand it on, never drop it. A push is held to the same field
 * limits as a request (ids 64-bit in canonical form, text within its documented or the stated
 * maximum): a receiver stores what it accepts, so it accepts only what the service can send.
 */
export const issuingEvent = withRequestLimits(
  c.variant("event_type", [cardOperateEvent, cardTransactionEvent]),
);

export type IssuingEvent = c.AppOf<typeof issuingEvent>;
export type UnknownIssuingEvent = c.AppOf<typeof unknownIssuingEvent>;
