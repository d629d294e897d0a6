/** Every documented issuing push, discriminated by event_type. */
// biome-ignore lint/correctness/noUnusedImports: so the .d.ts says JsonNumber, not import("@merchantkit/core").JsonNumber, which the bundled .d.ts loses (scripts/check-pack.ts)
import type { JsonNumber } from "@merchantkit/core";
import * as c from "../codec";
import { cardOperateEvent } from "./card-operate-event";
import { cardTransactionEvent } from "./card-transaction-event";
import type { unknownIssuingEvent } from "./envelope";

/**
 * A known event. An event_type outside ISSUING_EVENT_TYPES fails here: decode it with
 * unknownIssuingEvent instead and hand it on, never drop it. A push is read as leniently as a
 * query answer (the service's data, not a merchant's input): the request limits of
 * codec/request-limits.ts are not applied, so a value the query path reads is never what makes
 * the service retry a push until it drops it. Its shape is still held (required fields, closed
 * enums, ids and amounts that are numbers).
 */
export const issuingEvent = c.variant("event_type", [cardOperateEvent, cardTransactionEvent]);
export type IssuingEvent = c.AppOf<typeof issuingEvent>;
export type UnknownIssuingEvent = c.AppOf<typeof unknownIssuingEvent>;
