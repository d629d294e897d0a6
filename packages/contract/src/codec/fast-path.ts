/**
 * Fast paths: plain functions that give a codec schema's output for the common, valid case
 * without valibot's per-value datasets, pipes and issue lists (several hundred nanoseconds a
 * field, most of the time a page of 100 card transactions costs). A fast path answers MISS
 * whenever it is not sure; the caller then runs the schema with `v.safeParse`, so every failure
 * still gets valibot's exact issues and the schemas stay the one truth.
 *
 * The rule every fast path keeps: when it returns a value, that value is what the schema outputs
 * for the same input (fast-paths.test.ts compares both for every endpoint on generated data).
 * It may MISS where the schema succeeds; it must never succeed where the schema fails.
 */
import * as v from "valibot";

/** A fast path's answer when it cannot decide: run the schema instead. */
export const MISS: unique symbol = Symbol("merchantkit.codec.miss");
export type Miss = typeof MISS;

/**
 * The schema's output for `input`, or MISS. `owned`: the input is a tree fresh from the parser
 * that nobody else holds, so objects and arrays whose keys already stand in the output's order
 * may be decoded in place (their values replaced) instead of copied. An owned decode that
 * answers MISS may have changed the input on the way: the caller needs a fresh one for the schema.
 */
export type FastPath = (input: unknown, owned?: boolean) => unknown;

/**
 * Values a codec's decode gives back as they are, stated as data rather than as a function: a
 * string whose length is within [min, max], or an integer within [min, max]. The object walk
 * (object-walk.ts) checks them inline and calls the field's fast path only for other values:
 * a call per field (through optional() to the scalar's test) was a quarter of the cost of
 * decoding a card transaction page. A codec states them only where its decode answers exactly
 * so; fast-paths.test.ts holds every walk to its schema.
 */
export type Keeps =
  | { kind: "string"; min: number; max: number }
  | { kind: "integer"; min: number; max: number };

/** True when the decode that `k` describes gives `value` back as it is. */
export function keeps(k: Keeps, value: unknown): boolean {
  if (typeof value === "string")
    return k.kind === "string" && value.length >= k.min && value.length <= k.max;
  return (
    k.kind === "integer" &&
    Number.isInteger(value) &&
    (value as number) >= k.min &&
    (value as number) <= k.max
  );
}

/** The fast path of a schema with none of its own: correct, only not fast. */
export function throughSchema(schema: v.GenericSchema): FastPath {
  return (input) => {
    const result = v.safeParse(schema, input);
    return result.success ? result.output : MISS;
  };
}

/**
 * `v.safeParse(schema, input)`, answered by `fast` when it is sure. With `fresh` (which gives a
 * new copy of the same input, e.g. by parsing the text again) the input is owned: the fast path
 * may decode it in place, and the schema, when needed, reads the fresh copy.
 */
export function safeParseWith<S extends v.GenericSchema>(
  schema: S,
  fast: FastPath,
  input: unknown,
  fresh?: () => unknown,
): v.SafeParseResult<S> {
  const output = fast(input, fresh !== undefined);
  if (output === MISS) return v.safeParse(schema, fresh ? fresh() : input);
  return { typed: true, success: true, output: output as v.InferOutput<S>, issues: undefined };
}

/** True when `value` is an object made by `{}` or JSON.parse (what fast paths read directly). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
