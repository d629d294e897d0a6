/** The envelope of every issuing push: request_id, event_type, created_at, version, data. */
import * as v from "valibot";
import * as c from "../codec";
import type { Codec } from "../codec/codec";

/** The event types the contract documents. */
export const ISSUING_EVENT_TYPES = [
  "issuing.cardOperateEvent",
  "issuing.cardTransactionEvent",
] as const;
export type IssuingEventType = (typeof ISSUING_EVENT_TYPES)[number];

/** The version assumed when a push carries none (chosen at subscription, default 1.0). */
export const ISSUING_EVENT_DEFAULT_VERSION = "1.0";

/**
 * `version` is optional on the wire but always set in the SDK: an absent, null or empty
 * version reads as "1.0". Local codec: the shared `optional` has no default.
 */
function eventVersion(): Codec<string, string> {
  const decode = v.optional(
    v.pipe(
      v.nullable(v.string("must be a string")),
      v.transform((value) => value || ISSUING_EVENT_DEFAULT_VERSION),
    ),
    ISSUING_EVENT_DEFAULT_VERSION,
  );
  const encode = v.pipe(v.string("must be a string"), v.nonEmpty("must not be empty"));
  return {
    decode: decode as v.GenericSchema<unknown, string>,
    encode,
    wire: { type: "string", default: ISSUING_EVENT_DEFAULT_VERSION },
  };
}

/** Any JSON value, untouched both ways (the data of an event type the SDK does not know). */
function anyJson(): Codec<unknown, unknown> {
  const schema = v.unknown();
  return { decode: schema, encode: schema, wire: {} };
}

/**
 * The envelope around `data`, in wire order. `version` has a default instead of being optional
 * in the SDK type, so `object()` lists it as required: the wire schema is corrected here.
 */
function envelope<E extends c.AnyCodec, D extends c.AnyCodec>(eventType: E, data: D) {
  const obj = c.object({
    // Documented as a string holding a 64-bit number: a JSON number is read too, keeping its
    // digits, and it is always written as a string.
    request_id: c.idText(),
    event_type: eventType,
    /** ISO 8601 creation time, kept as the text the service sent. */
    created_at: c.string({ nonEmpty: true }),
    version: eventVersion(),
    data,
  });
  const required = (obj.wire.required as string[]).filter((key) => key !== "version");
  return { ...obj, wire: { ...obj.wire, required } };
}

/**
 * One event type's codec: the envelope with a fixed event_type and its data. Every event
 * codec goes through here, so the envelope is written once.
 */
export function issuingEventOf<const T extends string, D extends c.AnyCodec>(
  eventType: T,
  data: D,
) {
  return envelope(c.literal(eventType), data);
}

/**
 * The envelope alone, data left as it is: read it first to deduplicate by request_id and to
 * route by event_type before decoding data.
 */
export const issuingEventEnvelope = envelope(c.string({ nonEmpty: true }), anyJson());

/**
 * An event of a type this SDK does not know: the same envelope, so a consumer can acknowledge,
 * log or store it instead of dropping it (the service retries unacknowledged pushes).
 */
export const unknownIssuingEvent = issuingEventEnvelope;
