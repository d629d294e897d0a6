/**
 * A codec describes one wire field once and yields both directions from it:
 * `encode` turns the SDK's value into what goes on the wire (client requests, sandbox responses)
 * and `decode` turns a losslessly parsed wire value into the SDK's value (client responses,
 * sandbox requests). Limits and rules sit in both, so the sandbox enforces exactly what the
 * client checks before sending. `wire` is the JSON Schema of the wire form, for OpenAPI.
 */
import type * as v from "valibot";
import { type FastPath, type Keeps, type MISS, safeParseWith, throughSchema } from "./fast-path";

/** JSON Schema of a wire value (the subset the OpenAPI generator writes). */
export type WireSchema = { [key: string]: unknown };

/**
 * Plain functions for the two directions (fast-path.ts): each gives exactly its schema's
 * output, or MISS to let the schema decide. A codec without them is still correct, only slower.
 */
export interface CodecFastPaths {
  decode?: FastPath;
  encode?: FastPath;
  /** Values `decode` gives back as they are (fast-path.ts), for the object walk to check inline. */
  keeps?: Keeps;
  /** The encode direction straight to JSON text (encode-text.ts). */
  text?: (input: unknown) => string | undefined | typeof MISS;
}

export interface Codec<TApp, TWire = unknown> {
  readonly decode: v.GenericSchema<unknown, TApp>;
  readonly encode: v.GenericSchema<TApp, TWire>;
  readonly wire: WireSchema;
  /** Set by `optional()`: the field may be absent. */
  readonly optional?: true;
  readonly fast?: CodecFastPaths;
}

// biome-ignore lint/suspicious/noExplicitAny: codec type parameters are inferred per field
export type AnyCodec = Codec<any, any>;

/** The SDK-side type of a codec. */
export type AppOf<C> = C extends Codec<infer A, unknown> ? A : never;
/** The wire-side type of a codec. */
export type WireOf<C> = C extends Codec<unknown, infer W> ? W : never;

export function codec<TApp, TWire>(
  decode: v.GenericSchema<unknown, TApp>,
  encode: v.GenericSchema<TApp, TWire>,
  wire: WireSchema,
  fast?: CodecFastPaths,
): Codec<TApp, TWire> {
  return fast ? { decode, encode, wire, fast } : { decode, encode, wire };
}

// Codecs written as literals carry no fast paths; theirs run the schema (made once per codec).
const supplied = new WeakMap<v.GenericSchema, FastPath>();

function pathOf(schema: v.GenericSchema, own: FastPath | undefined): FastPath {
  if (own) return own;
  let path = supplied.get(schema);
  if (!path) {
    path = throughSchema(schema);
    supplied.set(schema, path);
  }
  return path;
}

/** The decode direction's fast path of `c`. */
export function decodePath(c: AnyCodec): FastPath {
  return pathOf(c.decode, c.fast?.decode);
}

/** The encode direction's fast path of `c`. */
export function encodePath(c: AnyCodec): FastPath {
  return pathOf(c.encode, c.fast?.encode);
}

/**
 * `v.safeParse(c.decode, wire)`, through the fast path: a wire value (losslessly parsed) read.
 * With `fresh`, the wire value is owned and may be decoded in place (safeParseWith).
 */
export function decodeWire<C extends AnyCodec>(
  c: C,
  wire: unknown,
  fresh?: () => unknown,
): v.SafeParseResult<C["decode"]> {
  return safeParseWith(c.decode, decodePath(c), wire, fresh);
}

/** `v.safeParse(c.encode, value)`, through the fast path: an SDK value made into its wire form. */
export function encodeWire<C extends AnyCodec>(
  c: C,
  value: unknown,
): v.SafeParseResult<C["encode"]> {
  return safeParseWith(c.encode, encodePath(c), value);
}
