import { inspect } from "node:util";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { ResponseValidationError } from "../errors/local-errors";
import { defineEndpoint } from "./endpoint";
import { readResponse } from "./read-response";

const text = '{"respCode":"20000","respMsg":"success","data":{"b":"2","a":"1"}}';
const answer = { status: 200, headers: new Headers(), text };
const ctx = { idempotencyKey: undefined, requestId: undefined };
const schema = v.looseObject({ a: v.string(), b: v.string() });

function endpointWith(parseResponse: (data: unknown, fresh?: () => unknown) => unknown) {
  return defineEndpoint({
    area: "issuing",
    path: "/test",
    auth: "issuingApiKey",
    kind: "read",
    request: v.object({}),
    response: schema,
    parseResponse: parseResponse as never,
  });
}

describe("readResponse hands parseResponse an owned answer", () => {
  it("gives the parsed data itself, and fresh() the same data parsed again", () => {
    let given: unknown;
    let again: unknown;
    const endpoint = endpointWith((data, fresh) => {
      given = data;
      (data as Record<string, unknown>).a = "decoded in place";
      again = fresh?.();
      return v.safeParse(schema, again);
    });
    const reading = readResponse(answer, { ...ctx, endpoint });
    expect(given).toStrictEqual({ b: "2", a: "decoded in place" });
    // fresh() is the answer as it arrived, untouched by what was done to `data`.
    expect(again).toStrictEqual({ b: "2", a: "1" });
    expect(again).not.toBe(given);
    expect(reading.ok && reading.data).toStrictEqual({ a: "1", b: "2" });
  });

  it("shows the answer as it arrived in the error when an in-place decode gave up", () => {
    const endpoint = endpointWith((data, fresh) => {
      (data as Record<string, unknown>).a = 42;
      return v.safeParse(v.object({ c: v.string() }), fresh?.());
    });
    const reading = readResponse(answer, { ...ctx, endpoint });
    expect(reading.ok).toBe(false);
    const error = !reading.ok ? reading.error : undefined;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).body).toStrictEqual({
      respCode: "20000",
      respMsg: "success",
      data: { b: "2", a: "1" },
    });
  });
});

describe("readResponse on a body that is not JSON", () => {
  const plain = defineEndpoint({
    area: "issuing",
    path: "/card/query3dsNotify",
    auth: "issuingApiKey",
    kind: "read",
    request: v.object({}),
    response: v.unknown(),
  });
  const bodyOf = (status: number, body: string) => {
    const reading = readResponse(
      { status, headers: new Headers(), text: body },
      { ...ctx, endpoint: plain },
    );
    expect(reading.ok).toBe(false);
    return JSON.stringify((reading as { error: { body?: unknown } }).error.body);
  };

  it("shows only the size of JSON cut short: redact() cannot find its secrets unparsed", () => {
    const cut =
      '{"respCode":"20000","respMsg":"success","data":{"records":[{"card3dsValues":"739201",' +
      '"identityNumber":"S1234567A","cardNumber":"4111 1111 1111 1111","sign":"ab12cd34ef"';
    const shown = bodyOf(200, cut);
    for (const secret of ["739201", "S1234567A", "4111 1111 1111 1111", "ab12cd34ef"])
      expect(shown).not.toContain(secret);
    expect(shown).toContain(`${cut.length} characters of JSON cut short`);
  });

  it("shows part of other text (a proxy's error page), card-like digit runs masked", () => {
    const shown = bodyOf(
      502,
      "<html>Bad gateway; ref 4111 1111 1111 1111 and 4111111111111111</html>",
    );
    expect(shown).toContain("Bad gateway");
    expect(shown).not.toMatch(/4111/);
  });
});

describe("readResponse masks what a failure echoes", () => {
  const endpoint = defineEndpoint({
    area: "payout",
    path: "/api/v1/beneficiary/queryDetail",
    auth: "sign",
    kind: "read",
    request: v.object({}),
    response: v.object({ beneficiaryId: v.string() }),
  });
  const KEY = "sandbox-secret-key";
  const PAN = "4111111111111111";
  const errorOf = (status: number, text: string) => {
    const reading = readResponse(
      { status, headers: new Headers(), text },
      { ...ctx, endpoint, secrets: () => [KEY] },
    );
    expect(reading.ok).toBe(false);
    const error = (reading as { error: Error }).error;
    // Everything a log or a report could show of the error.
    return [
      error.message,
      String(error.stack),
      inspect(error, { depth: null }),
      JSON.stringify(error),
    ];
  };

  it("a card number in respMsg or under an unknown name (an API error)", () => {
    const shown = errorOf(
      200,
      JSON.stringify({
        respCode: "40000",
        respMsg: `invalid cardNumber ${PAN}`,
        data: { cardNo: PAN, cardNumber: PAN },
      }),
    );
    for (const text of shown) expect(text).not.toContain(PAN);
    expect(shown[0]).toContain("invalid cardNumber ****************");
  });

  it("a card number in an answer of the wrong shape", () => {
    const shown = errorOf(
      200,
      JSON.stringify({
        respCode: "20000",
        respMsg: "ok",
        data: { note: `card ${PAN} here`, cardNo: PAN },
      }),
    );
    for (const text of shown) expect(text).not.toContain(PAN);
  });

  it("the request's own credential echoed by an error page or a JSON answer", () => {
    for (const shown of [
      errorOf(502, `<html>error for card 4111 1111 1111 1111 and ${PAN} key=${KEY}</html>`),
      errorOf(200, JSON.stringify({ respCode: "40100", respMsg: `sign checked with ${KEY}` })),
      errorOf(200, `not json ${KEY}`),
    ]) {
      for (const text of shown) {
        expect(text).not.toContain(KEY);
        expect(text).not.toContain(PAN);
        expect(text).not.toContain("4111 1111");
      }
    }
  });
});
