/**
 * Every codec answers through a fast path first (fast-path.ts). This checks, for every
 * endpoint's request and response codec and every webhook event, that the fast paths give
 * exactly what the valibot schemas give: whenever a fast path answers, the schema succeeds with
 * the same output down to key order, undefined-valued keys and JsonNumber texts; and that they
 * do answer for most valid values (a fast path that always MISSes would prove nothing). Inputs are generated from each codec's
 * own wire JSON Schema (so most are valid and reach deep into the shape), then mutated (keys
 * dropped, nulled, retyped, added; numbers made huge or given trailing zeros) to reach the
 * edges where a fast path must hand over to the schema.
 */
import { JsonNumber, type JsonValue, parseJson, stringifyJson } from "@merchantkit/core";
import fc from "fast-check";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { endpoints } from "../endpoint-table";
import { issuingEvent } from "../events";
import { type AnyCodec, decodePath, encodePath, type WireSchema } from "./codec";
import { textOf } from "./encode-text";
import { type FastPath, MISS } from "./fast-path";
import { REQUEST_TEXT_MAX_LENGTH } from "./request-limits";

type Schema = WireSchema & {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: string[];
  examples?: string[];
  const?: unknown;
  contentSchema?: Schema;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
};

const decimalText = fc
  .tuple(
    fc.boolean(),
    fc.oneof(fc.constant("0"), fc.stringMatching(/^[1-9]\d{0,9}$/)),
    fc.option(fc.stringMatching(/^\d{1,3}$/), { nil: undefined }),
  )
  .map(([neg, int, fr]) => `${neg ? "-" : ""}${int}${fr ? `.${fr}` : ""}`);

// A wire number as parseJson hands it over: a plain number when it prints back, else JsonNumber.
function wireNumber(text: string): JsonValue {
  return parseJson(text);
}

function arbitraryFor(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((s) => arbitraryFor(s, depth)));
  if (schema.oneOf) return fc.oneof(...schema.oneOf.map((s) => arbitraryFor(s, depth)));
  if (schema.contentSchema) {
    return arbitraryFor(schema.contentSchema, depth + 1).map((value) =>
      stringifyJson(value ?? null),
    );
  }
  switch (schema.type) {
    case "object": {
      const props = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const entries: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, s] of Object.entries(props)) entries[key] = arbitraryFor(s, depth + 1);
      const optional = Object.keys(props).filter((k) => !required.has(k));
      return fc
        .record(entries, { requiredKeys: [...required].filter((k) => k in props) })
        .chain((value) =>
          // Optional fields also come back as null from the service.
          fc.subarray(optional).map((nulled) => {
            const out: Record<string, unknown> = { ...value };
            for (const key of nulled) if (key in out) out[key] = null;
            return out;
          }),
        );
    }
    case "array": {
      const min = schema.minItems ?? 0;
      const max = Math.min(schema.maxItems ?? 3, min + 3, depth > 2 ? min : 3);
      return fc.array(arbitraryFor(schema.items ?? {}, depth + 1), {
        minLength: min,
        maxLength: Math.max(min, max),
      });
    }
    case "string": {
      if (schema.enum) return fc.constantFrom(...schema.enum);
      if (schema.examples) return fc.oneof(fc.constantFrom(...schema.examples), fc.string());
      if (schema.pattern) {
        return fc
          .stringMatching(new RegExp(schema.pattern))
          .filter(
            (s) =>
              s.length >= (schema.minLength ?? 0) &&
              s.length <= (schema.maxLength ?? Number.POSITIVE_INFINITY),
          );
      }
      // Strings at their maximum length too, where a limit is off by one or not.
      const max = Math.min(schema.maxLength ?? 20, 70);
      return fc.oneof(
        fc.string({ minLength: schema.minLength ?? 0, maxLength: max }),
        fc.constant("s".repeat(max)),
      );
    }
    case "integer": {
      if (schema.format === "int64") {
        return fc.oneof(
          fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map((n) => wireNumber(n.toString())),
          fc.nat().map((n) => 1_700_000_000_000 + n),
        );
      }
      return fc.integer({ min: schema.minimum ?? -5, max: schema.maximum ?? 1_000 });
    }
    case "number":
      return decimalText.map(wireNumber);
    case "boolean":
      return fc.boolean();
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

// Replaces the value at a random path (or drops it, or adds a key beside it).
const mutation = fc.record({
  at: fc.nat(),
  action: fc.constantFrom(
    "drop",
    "null",
    "retype",
    "add",
    "huge",
    "trailing",
    "emptyString",
    "longer",
    "tooLong",
    "bigId",
    "moveLast",
    "constructor",
  ),
  retype: fc.constantFrom<unknown>("x", 0, -1, 1.5, true, {}, [], "", "12.30"),
});

function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== "object" || value === null || value instanceof JsonNumber) return [prefix];
  const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return [prefix, ...keys.flatMap((k) => paths((value as never)[k], [...prefix, k]))];
}

type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

function mutate(input: unknown, m: Mutation) {
  const copy = structuredCopy(input);
  const all = paths(copy).filter((p) => p.length > 0);
  if (all.length === 0) return m.retype;
  const path = all[(m.at as number) % all.length] as (string | number)[];
  let parent = copy as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
  const key = path[path.length - 1] as string | number;
  switch (m.action) {
    case "drop":
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key];
      break;
    case "null":
      parent[key] = null;
      break;
    case "add":
      if (!Array.isArray(parent)) parent.zzUnknownField = m.retype;
      break;
    case "moveLast": {
      // The same keys in another order: the output's order is the schema's, not the input's.
      const value = parent[key];
      if (Array.isArray(parent)) parent.push(...parent.splice(key as number, 1));
      else {
        delete parent[key];
        parent[key] = value;
      }
      break;
    }
    case "constructor":
      // An own key a loose object drops rather than copies.
      if (!Array.isArray(parent)) Object.assign(parent, { constructor: m.retype });
      break;
    case "huge":
      parent[key] = new JsonNumber("98765432109876543210");
      break;
    case "trailing":
      parent[key] = new JsonNumber("100.10");
      break;
    case "emptyString":
      parent[key] = "";
      break;
    case "tooLong":
      // Past the stated limit of requests' strings without a documented one.
      parent[key] = "s".repeat(REQUEST_TEXT_MAX_LENGTH + 1);
      break;
    case "bigId":
      parent[key] = "18446744073709551616";
      break;
    case "longer":
      // One character past a string at its maximum length.
      parent[key] = typeof parent[key] === "string" ? `${parent[key]}x` : m.retype;
      break;
    default:
      parent[key] = m.retype;
  }
  return copy;
}

function structuredCopy(value: unknown): unknown {
  if (value instanceof JsonNumber || typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map(structuredCopy);
  const out: Record<string, unknown> = {};
  for (const [k, item] of Object.entries(value)) out[k] = structuredCopy(item);
  return out;
}

let answered = 0;
let answeredOwned = 0;

// Every object's keys in order, all the way down: toStrictEqual does not compare key order.
function keyOrder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(keyOrder);
  if (typeof value !== "object" || value === null || value instanceof JsonNumber) return null;
  return Object.entries(value).map(([key, item]) => [key, keyOrder(item)]);
}

// The fast path's answer (when it gives one) is the schema's, key order included.
function sameAsSchema(out: unknown, exact: v.SafeParseResult<v.GenericSchema>) {
  expect(exact.success).toBe(true);
  expect(out).toStrictEqual(exact.output);
  expect(keyOrder(out)).toStrictEqual(keyOrder(exact.output));
}

// The schema's answer, after checking the fast path's against it, both the copying one and
// the one on an owned input (decoded in place where its keys stand in the output's order).
function bothWays(schema: v.GenericSchema, fast: FastPath, input: unknown) {
  const exact = v.safeParse(schema, input);
  const out = fast(input);
  if (out !== MISS) {
    answered++;
    sameAsSchema(out, exact);
  }
  const owned = structuredCopy(input);
  const inPlace = fast(owned, true);
  if (inPlace !== MISS) {
    answeredOwned++;
    sameAsSchema(inPlace, exact);
  }
  return exact;
}

// Encoding straight to text must write what encoding and then stringifyJson write.
let textsWritten = 0;
function textMatches(c: AnyCodec, app: unknown) {
  const text = textOf(c)(app);
  if (text === MISS) return;
  textsWritten++;
  const exact = v.safeParse(c.encode, app);
  expect(exact.success).toBe(true);
  expect(text).toBe(stringifyJson(exact.output));
}

const codecs: [string, AnyCodec][] = [
  ...endpoints.flatMap((e): [string, AnyCodec][] => [
    [`${e.name} request`, e.requestCodec],
    [`${e.name} response`, e.responseCodec],
  ]),
  ["issuing webhook event", issuingEvent],
];

describe("fast paths give exactly what the schemas give", () => {
  let accepted = 0;

  it.each(codecs)("%s: decode and encode, valid and mutated", (_name, c) => {
    const [read, write] = [decodePath(c), encodePath(c)];
    fc.assert(
      fc.property(arbitraryFor(c.wire as Schema), mutation, (wire, m) => {
        const decoded = bothWays(c.decode, read, wire);
        if (decoded.success) {
          accepted++;
          const app = decoded.output;
          const mutated = mutate(app, m);
          bothWays(c.encode, write, app);
          bothWays(c.encode, write, mutated);
          textMatches(c, app);
          textMatches(c, mutated);
        }
        bothWays(c.decode, read, mutate(wire, m));
      }),
      { numRuns: 60 },
    );
  });

  it("reached the fast paths with valid values, not only with rejected ones", () => {
    expect(accepted).toBeGreaterThan(codecs.length * 10);
    // Each accepted value is answered at least twice (decode, encode) when the paths work.
    expect(answered).toBeGreaterThan(accepted * 2);
    expect(answeredOwned).toBeGreaterThan(accepted * 2);
    expect(textsWritten).toBeGreaterThan(codecs.length * 10);
  });
});
