/** Every documented issuing push, discriminated by event_type. */
import * as c from "../codec";
import { cardOperateEvent } from "./card-operate-event";
import { cardTransactionEvent } from "./card-transaction-event";
import type { unknownIssuingEvent } from "./envelope";

/**
 * A known event. An event_type outside ISSUING_EVENT_TYPES fails here: decode it with
 * unknownIssuingEvent instead and hand it on, never drop it.
 */
export const issuingEvent = c.variant("event_type", [cardOperateEvent, cardTransactionEvent]);

export type IssuingEvent = c.AppOf<typeof issuingEvent>;
export type UnknownIssuingEvent = c.AppOf<typeof unknownIssuingEvent>;
