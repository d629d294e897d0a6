/**
 * Codecs the payout area needs that the shared combinators do not have: a string-keyed map, an
 * object that may also arrive as JSON text, a case-insensitive open enum and the payer query's
 * page size (-1 or at least 1). Candidates for ../codec if another area needs them.
 */
import * as v from "valibot";
import * as c from "../codec";
import { type AnyCodec, type AppOf, type Codec, codec, type WireOf } from "../codec/codec";

/** An object whose keys are not fixed (field name → requirement), each value read by `value`. */
export function stringRecord<C extends AnyCodec>(
  value: C,
): Codec<Record<string, AppOf<C>>, Record<string, WireOf<C>>> {
  return codec(
    v.record(v.string(), value.decode, "must be an object") as v.GenericSchema<
      unknown,
      Record<string, AppOf<C>>
    >,
    v.record(v.string(), value.encode, "must be an object") as unknown as v.GenericSchema<
      Record<string, AppOf<C>>,
      Record<string, WireOf<C>>
    >,
    { type: "object", additionalProperties: value.wire },
  );
}

/**
 * A value sent as a plain JSON object but read leniently: a JSON-encoded string of it is
 * accepted too (the queryPaymentFeild templates, whose wire form is not pinned down).
 */
export function objectOrJsonText<C extends AnyCodec>(
  inner: C,
  what: string,
): Codec<AppOf<C>, WireOf<C>> {
  return codec(c.jsonText(inner, what).decode, inner.encode, {
    ...inner.wire,
    description: `${what}; a JSON-encoded string of it is accepted when reading`,
  });
}

/**
 * An open enum whose known values are capitals but which the service may send in another case:
 * reading maps a known value in any case to its canonical spelling, anything else passes as is.
 */
export function caseInsensitiveOpenEnum<const T extends readonly [string, ...string[]]>(
  values: T,
): Codec<T[number] | (string & {}), string> {
  const known = new Map(values.map((value) => [value.toUpperCase(), value]));
  const base = c.openEnum(values);
  const decode = v.pipe(
    base.decode,
    v.transform((value: string) => known.get(value.toUpperCase()) ?? value),
  ) as v.GenericSchema<unknown, T[number] | (string & {})>;
  return codec(decode, base.encode, base.wire);
}

/** acct/queryPayer `size`: -1 asks for every record, otherwise at least 1 (0 means nothing). */
export function pageSizeOrAll(): Codec<number, number> {
  const schema = v.pipe(
    v.number("must be a number"),
    v.integer("must be an integer"),
    v.check((n: number) => n === -1 || n >= 1, "must be -1 (all records) or at least 1"),
  ) as v.GenericSchema<number, number>;
  return codec(schema, schema, {
    type: "integer",
    anyOf: [{ const: -1 }, { minimum: 1 }],
    description: "-1 asks for all records",
  });
}

/** A field counts as sent when it is neither absent nor null (the service reads null as absent). */
export function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}
