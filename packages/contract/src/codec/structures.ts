/**
 * Codecs that combine others: objects, arrays, optional and nullable fields, JSON-encoded string
 * fields, discriminated variants and object-level rules. Requests are strict objects (an
 * unknown key is a typo the caller should hear about); responses are loose (fields the service
 * adds later pass through untouched).
 */
import { parseJson, stringifyJson } from "@merchantkit/core";
import * as v from "valibot";
import {
  type AnyCodec,
  type AppOf,
  type Codec,
  type CodecFastPaths,
  codec,
  decodePath,
  encodePath,
  type WireOf,
  type WireSchema,
} from "./codec";
import { arrayText, objectText, textOf } from "./encode-text";
import { type FastPath, MISS } from "./fast-path";
import { objectWalk } from "./object-walk";

type Shape = Record<string, AnyCodec>;

type OptionalKeys<S extends Shape> = {
  [K in keyof S]: S[K] extends { optional: true } ? K : never;
}[keyof S];
type RequiredKeys<S extends Shape> = Exclude<keyof S, OptionalKeys<S>>;
type Simplify<T> = { [K in keyof T]: T[K] } & {};

export type ObjectApp<S extends Shape> = Simplify<
  { [K in RequiredKeys<S>]: AppOf<S[K]> } & { [K in OptionalKeys<S>]?: AppOf<S[K]> }
>;
export type ObjectWire<S extends Shape> = Simplify<
  { [K in RequiredKeys<S>]: WireOf<S[K]> } & { [K in OptionalKeys<S>]?: WireOf<S[K]> }
>;

export interface ObjectCodec<S extends Shape> extends Codec<ObjectApp<S>, ObjectWire<S>> {
  readonly shape: S;
}

/**
 * One message function for every issue an object schema raises itself: a missing key, an
 * unknown key (strict requests) or a value that is not an object at all.
 */
function objectIssueMessage(issue: v.BaseIssue<unknown>): string {
  if (issue.expected === "never") return "is not a field of this request (check the spelling)";
  if (issue.expected?.startsWith('"')) return "is required";
  return "must be an object";
}

function mapShape<T>(shape: Shape, pick: (c: AnyCodec) => T): Record<string, T> {
  const entries: Record<string, T> = {};
  for (const [key, c] of Object.entries(shape)) entries[key] = pick(c);
  return entries;
}

export function object<S extends Shape>(
  shape: S,
  opts: {
    description?: string;
    /**
     * Also pass unknown keys on the way out: for objects whose keys the service defines at run
     * time (the beneficiary parts, whose required keys come from the queryPaymentFeild template).
     */
    open?: boolean;
  } = {},
): ObjectCodec<S> {
  const properties: Record<string, WireSchema> = {};
  const required: string[] = [];
  for (const [key, c] of Object.entries(shape)) {
    properties[key] = c.wire;
    if (!c.optional) required.push(key);
  }
  const decodeEntries = mapShape(shape, (c) => c.decode);
  const encodeEntries = mapShape(shape, (c) => c.encode);
  const fast: CodecFastPaths = {};
  const read = objectWalk(
    decodeEntries,
    mapShape(shape, decodePath),
    "copy",
    mapShape(shape, (c) => c.fast?.keeps),
  );
  if (read) fast.decode = read;
  const write = objectWalk(
    encodeEntries,
    mapShape(shape, encodePath),
    opts.open ? "copy" : "refuse",
  );
  if (write) fast.encode = write;
  // Open objects pass unknown keys, whose text only stringifyJson writes exactly.
  if (write && !opts.open) fast.text = objectText(encodeEntries, mapShape(shape, textOf));
  return {
    shape,
    decode: v.looseObject(decodeEntries, objectIssueMessage) as unknown as v.GenericSchema<
      unknown,
      ObjectApp<S>
    >,
    encode: (opts.open
      ? v.looseObject(encodeEntries, objectIssueMessage)
      : v.strictObject(encodeEntries, objectIssueMessage)) as unknown as v.GenericSchema<
      ObjectApp<S>,
      ObjectWire<S>
    >,
    wire: {
      type: "object",
      properties,
      required,
      ...(opts.description ? { description: opts.description } : {}),
    },
    fast,
  };
}

/** The same object with more fields (e.g. the cardholder fields plus merchantNo and an id). */
export function extend<S extends Shape, X extends Shape>(
  base: ObjectCodec<S>,
  more: X,
): ObjectCodec<Omit<S, keyof X> & X> {
  return object({ ...base.shape, ...more } as Omit<S, keyof X> & X);
}

export function array<C extends AnyCodec>(
  item: C,
  rule: { minItems?: number; maxItems?: number } = {},
): Codec<AppOf<C>[], WireOf<C>[]> {
  const checks = (s: v.GenericSchema) => {
    const actions: v.PipeItem<unknown[], unknown[], v.BaseIssue<unknown>>[] = [];
    if (rule.minItems !== undefined)
      actions.push(
        v.minLength(
          rule.minItems,
          rule.minItems === 1 ? "must not be empty" : `must have at least ${rule.minItems} items`,
        ),
      );
    if (rule.maxItems !== undefined)
      actions.push(v.maxLength(rule.maxItems, `must have at most ${rule.maxItems} items`));
    return v.pipe(v.array(s, "must be an array"), ...actions);
  };
  const { minItems = 0, maxItems = Number.POSITIVE_INFINITY } = rule;
  const eachOf =
    (each: FastPath): FastPath =>
    (input, owned) => {
      if (!Array.isArray(input) || input.length < minItems || input.length > maxItems) return MISS;
      // An owned array is its own output (valibot's array keeps the order of the items).
      const out = owned ? input : new Array(input.length);
      for (let i = 0; i < input.length; i++) {
        const value = each(input[i], owned);
        if (value === MISS) return MISS;
        out[i] = value;
      }
      return out;
    };
  return codec(
    checks(item.decode) as unknown as v.GenericSchema<unknown, AppOf<C>[]>,
    checks(item.encode) as unknown as v.GenericSchema<AppOf<C>[], WireOf<C>[]>,
    {
      type: "array",
      items: item.wire,
      ...(rule.minItems !== undefined ? { minItems: rule.minItems } : {}),
      ...(rule.maxItems !== undefined ? { maxItems: rule.maxItems } : {}),
    },
    {
      decode: eachOf(decodePath(item)),
      encode: eachOf(encodePath(item)),
      text: arrayText(textOf(item), minItems, maxItems),
    },
  );
}

/** A field that may be absent. Reading, `null` counts as absent too (unset values come back null). */
export function optional<C extends AnyCodec>(
  inner: C,
): Codec<AppOf<C> | undefined, WireOf<C> | undefined> & { optional: true } {
  const decode = v.pipe(
    v.optional(v.nullable(inner.decode)),
    v.transform((value) => value ?? undefined),
  );
  const [read, write, text] = [decodePath(inner), encodePath(inner), textOf(inner)];
  return {
    decode: decode as unknown as v.GenericSchema<unknown, AppOf<C> | undefined>,
    encode: v.optional(inner.encode) as v.GenericSchema<
      AppOf<C> | undefined,
      WireOf<C> | undefined
    >,
    wire: inner.wire,
    optional: true,
    fast: {
      // A present value is the inner codec's to decode: so are the values it keeps.
      ...(inner.fast?.keeps ? { keeps: inner.fast.keeps } : {}),
      decode: (input, owned) =>
        input === undefined || input === null ? undefined : read(input, owned),
      encode: (input) => (input === undefined ? undefined : write(input)),
      text: (input) => (input === undefined ? undefined : text(input)),
    },
  };
}

/** A field that is always present but may be null (fee fields of a card transaction). */
export function nullable<C extends AnyCodec>(inner: C): Codec<AppOf<C> | null, WireOf<C> | null> {
  const orNull =
    (fast: FastPath): FastPath =>
    (input, owned) =>
      input === null ? null : fast(input, owned);
  const innerText = textOf(inner);
  return codec(
    v.nullable(inner.decode) as v.GenericSchema<unknown, AppOf<C> | null>,
    v.nullable(inner.encode) as v.GenericSchema<AppOf<C> | null, WireOf<C> | null>,
    { anyOf: [inner.wire, { type: "null" }] },
    {
      ...(inner.fast?.keeps ? { keeps: inner.fast.keeps } : {}),
      decode: orNull(decodePath(inner)),
      encode: orNull(encodePath(inner)),
      text: (input) => (input === null ? "null" : innerText(input)),
    },
  );
}

/**
 * A field the wire carries as a JSON-encoded string (receiverInfo, address, accountInfomation,
 * payerDetail, receivers). The SDK sees the typed value; the text is made with the lossless
 * stringifier, so amounts and ids inside keep every digit.
 */
export function jsonText<C extends AnyCodec>(inner: C, what: string): Codec<AppOf<C>, string> {
  const decode = v.pipe(
    v.unknown(),
    v.rawTransform<unknown, unknown>(({ dataset, addIssue, NEVER }) => {
      const value = dataset.value;
      // Lenient reading: an already-decoded object or array is taken as it is.
      if (typeof value === "object" && value !== null) return value;
      if (typeof value === "string") {
        try {
          return parseJson(value);
        } catch {
          // falls through to the issue below
        }
      }
      addIssue({ message: `must be a JSON-encoded ${what}` });
      return NEVER;
    }),
    inner.decode,
  );
  const encode = v.pipe(
    inner.encode,
    v.transform((value) => stringifyJson(value)),
  );
  const [read, write] = [decodePath(inner), encodePath(inner)];
  return codec(
    decode as v.GenericSchema<unknown, AppOf<C>>,
    encode as v.GenericSchema<AppOf<C>, string>,
    {
      type: "string",
      contentMediaType: "application/json",
      contentSchema: inner.wire,
      description: `JSON-encoded ${what}`,
    },
    {
      decode: (input, owned) => {
        if (typeof input === "object" && input !== null) return read(input, owned);
        if (typeof input !== "string") return MISS;
        let parsed: unknown;
        try {
          parsed = parseJson(input);
        } catch {
          return MISS;
        }
        // Parsed here, so owned; after a MISS the schema parses the text again.
        return read(parsed, true);
      },
      encode: (input) => {
        const value = write(input);
        return value === MISS ? MISS : stringifyJson(value);
      },
    },
  );
}

/** One object of several, chosen by a literal key (profitType share | return). */
export function variant<K extends string, O extends readonly ObjectCodec<Shape>[]>(
  key: K,
  options: O,
): Codec<AppOf<O[number]>, WireOf<O[number]>> {
  const decode = v.variant(key, options.map((o) => o.decode) as never, `must have a valid ${key}`);
  const encode = v.variant(key, options.map((o) => o.encode) as never, `must have a valid ${key}`);
  const pick = (direction: "decode" | "encode"): FastPath => {
    const choices = options.map((o) => ({
      // The discriminator is a literal: running its schema is as cheap as a fast path and
      // exactly as strict, which the choice of option must be.
      accepts: (value: unknown) =>
        v.safeParse(o.shape[key]?.[direction] as v.GenericSchema, value).success,
      fast: direction === "decode" ? decodePath(o) : encodePath(o),
    }));
    return (input, owned) => {
      if (typeof input !== "object" || input === null || !(key in input)) return MISS;
      const tag = (input as Record<string, unknown>)[key];
      // The first option whose discriminator fits decides; if its fast path is unsure, so
      // are we (a later option must not answer for it).
      const choice = choices.find((c) => c.accepts(tag));
      return choice ? choice.fast(input, owned) : MISS;
    };
  };
  return codec(
    decode as unknown as v.GenericSchema<unknown, AppOf<O[number]>>,
    encode as unknown as v.GenericSchema<AppOf<O[number]>, WireOf<O[number]>>,
    { oneOf: options.map((o) => o.wire), discriminator: { propertyName: key } },
    { decode: pick("decode"), encode: pick("encode") },
  );
}

export interface Rule {
  /** The field the message is about (the issue's path). */
  field: string;
  /** The rule in words, e.g. "is required when chargeFlag is N". */
  message: string;
  /**
   * True when the object satisfies the rule. It sees the SDK-side value when decoding and the
   * wire value when encoding, so it may only test presence and string fields, which read the
   * same in both.
   */
  test: (value: Record<string, unknown>) => boolean;
}

/**
 * Object-level rules (conditional fields) checked in both directions, each reported on the
 * field it concerns: the client checks them before sending, the sandbox on arrival.
 */
export function withRules<A, W>(base: Codec<A, W>, rules: readonly Rule[]): Codec<A, W> {
  const checks = rules.map((r) =>
    v.forward(
      v.check((input: Record<string, unknown>) => r.test(input), r.message),
      [r.field] as never,
    ),
  );
  const description = rules.map((r) => `${r.field} ${r.message}`).join("; ");
  const checked =
    (fast: FastPath): FastPath =>
    (input, owned) => {
      const value = fast(input, owned);
      if (value === MISS) return MISS;
      return rules.every((r) => r.test(value as Record<string, unknown>)) ? value : MISS;
    };
  return codec(
    v.pipe(base.decode, ...(checks as never[])) as v.GenericSchema<unknown, A>,
    v.pipe(base.encode, ...(checks as never[])) as v.GenericSchema<A, W>,
    {
      ...base.wire,
      description: [base.wire.description, `Rules: ${description}`].filter(Boolean).join(". "),
    },
    { decode: checked(decodePath(base)), encode: checked(encodePath(base)) },
  );
}
