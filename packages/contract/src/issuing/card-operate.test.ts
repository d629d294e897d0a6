import { isJsonNumber, parseJson, stringifyJson } from "@merchantkit/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { cardOperate } from "./card-operate";

describe("issuing card/operate", () => {
  it("encodes a 64-bit cardId as a bare JSON number and decodes the record id to a string", () => {
    const wire = v.parse(cardOperate.request, {
      clientRequestId: "r1",
      cardId: "1953712585351499776",
      type: "FREEZE",
    });
    expect(isJsonNumber(wire.cardId)).toBe(true);
    expect(stringifyJson(wire)).toBe(
      '{"clientRequestId":"r1","cardId":1953712585351499776,"type":"FREEZE"}',
    );
    const data = v.parse(
      cardOperate.response,
      parseJson('{"operateRecordId":1953712585351499777}') as { operateRecordId: unknown },
    );
    expect(data.operateRecordId).toBe("1953712585351499777");
  });

  it("decodes a wire request for the sandbox with the same rules", () => {
    const body = parseJson('{"clientRequestId":"r1","cardId":1953712585351499776,"type":"FREEZE"}');
    expect(v.parse(cardOperate.requestCodec.decode, body)).toEqual({
      clientRequestId: "r1",
      cardId: "1953712585351499776",
      type: "FREEZE",
    });
    expect(
      v.safeParse(cardOperate.requestCodec.decode, { ...(body as object), type: "MELT" }).success,
    ).toBe(false);
  });

  it("holds clientRequestId to 64 characters and rejects unknown keys on the way out", () => {
    const ok = v.safeParse(cardOperate.request, {
      clientRequestId: "x".repeat(64),
      cardId: "1",
      type: "FREEZE",
    });
    expect(ok.success).toBe(true);
    const long = v.safeParse(cardOperate.request, {
      clientRequestId: "x".repeat(65),
      cardId: "1",
      type: "FREEZE",
    });
    expect(long.success).toBe(false);
    const typo = v.safeParse(cardOperate.request, {
      clientRequestId: "r",
      cardID: "1",
      cardId: "1",
      type: "FREEZE",
    });
    expect(typo.success).toBe(false);
  });
});
