import { parseJson, stringifyJson } from "@merchantkit/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { ISSUING_EVENT_TYPES, issuingEventEnvelope, unknownIssuingEvent } from "./envelope";

const pushed = `{"request_id":1953712585351499776,"event_type":"issuing.cardOperateEvent",
  "created_at":"2025-08-01T08:00:00.000Z","data":{"operateRecordId":1953712585351499777,"amount":100.10}}`;

describe("issuing event envelope", () => {
  it("reads a 64-bit request_id sent as a JSON number as that exact string", () => {
    const envelope = v.parse(issuingEventEnvelope.decode, parseJson(pushed));
    expect(envelope.request_id).toBe("1953712585351499776");
  });

  it("reads a request_id string as it is and writes it back as a string", () => {
    const text = pushed.replace("1953712585351499776", '"1953712585351499776"');
    const envelope = v.parse(issuingEventEnvelope.decode, parseJson(text));
    expect(envelope.request_id).toBe("1953712585351499776");
    expect(stringifyJson(v.parse(issuingEventEnvelope.encode, envelope))).toContain(
      '"request_id":"1953712585351499776"',
    );
  });

  it("defaults an absent or null version to 1.0 and keeps a given one", () => {
    expect(v.parse(issuingEventEnvelope.decode, parseJson(pushed)).version).toBe("1.0");
    const withNull = pushed.replace('"data"', '"version":null,"data"');
    expect(v.parse(issuingEventEnvelope.decode, parseJson(withNull)).version).toBe("1.0");
    const v2 = pushed.replace('"data"', '"version":"2.0","data"');
    expect(v.parse(issuingEventEnvelope.decode, parseJson(v2)).version).toBe("2.0");
    expect(issuingEventEnvelope.wire.required).not.toContain("version");
    expect(issuingEventEnvelope.wire.required).toContain("request_id");
  });

  it("keeps the data of any event type untouched, digits included", () => {
    const text = pushed.replace("issuing.cardOperateEvent", "issuing.cardReissueEvent");
    const event = v.parse(unknownIssuingEvent.decode, parseJson(text));
    expect(event.event_type).toBe("issuing.cardReissueEvent");
    expect(ISSUING_EVENT_TYPES).not.toContain(event.event_type);
    expect(stringifyJson(v.parse(unknownIssuingEvent.encode, event))).toBe(
      '{"request_id":"1953712585351499776","event_type":"issuing.cardReissueEvent","created_at":"2025-08-01T08:00:00.000Z","version":"1.0","data":{"operateRecordId":1953712585351499777,"amount":100.10}}',
    );
  });

  it("requires request_id, event_type, created_at and data", () => {
    const full = parseJson(pushed) as Record<string, unknown>;
    for (const key of ["request_id", "event_type", "created_at", "data"]) {
      const { [key]: _, ...rest } = full;
      expect(v.safeParse(issuingEventEnvelope.decode, rest).success, key).toBe(false);
    }
  });
});
