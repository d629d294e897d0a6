/**
 * A codec describes one wire field once and yields both directions from it:
 * `encode` turns the SDK's value into what goes on the wire (client requests, sandbox responses)
 * and `decode` turns a losslessly parsed wire value into the SDK's value (client responses,
 * sandbox requests). Limits and rules sit in both, so the sandbox enforces exactly what the
 * client checks before sending. `wire` is the JSON Schema of the wire form, for OpenAPI.
 */
import { type FastPath, withFastPath } from "@merchantkit/core";
import type * as v from "valibot";
import type { TextPath } from "./encode-text";

/** JSON Schema of a wire value (the subset the OpenAPI generator writes). */
export type WireSchema = { [key: string]: unknown };

export interface Codec<TApp, TWire = unknown> {
  readonly decode: v.GenericSchema<unknown, TApp>;
  readonly encode: v.GenericSchema<TApp, TWire>;
  readonly wire: WireSchema;
  /** Set by `optional()`: the field may be absent. */
  readonly optional?: true;
  /**
   * `stringifyJson(encode(app))` in one step, or MISS (encode-text.ts); read it with `textOf`,
   * which supplies one for codecs that do not carry their own.
   */
  readonly encodeText?: TextPath;
}

// biome-ignore lint/suspicious/noExplicitAny: codec type parameters are inferred per field
export type AnyCodec = Codec<any, any>;

/** The SDK-side type of a codec. */
export type AppOf<C> = C extends Codec<infer A, unknown> ? A : never;
/** The wire-side type of a codec. */
export type WireOf<C> = C extends Codec<unknown, infer W> ? W : never;

/**
 * Fast paths for the two directions (see core's fast-path.ts): plain functions for the valid
 * case that give exactly the schema's output, or MISS to let the schema decide. A codec without
 * them is still correct, only slower; composites fall back to running such parts as schemas.
 */
export interface CodecFastPaths {
  decode?: FastPath;
  encode?: FastPath;
  /** The encode direction straight to JSON text (encode-text.ts). */
  encodeText?: TextPath;
}

export function codec<TApp, TWire>(
  decode: v.GenericSchema<unknown, TApp>,
  encode: v.GenericSchema<TApp, TWire>,
  wire: WireSchema,
  fast: CodecFastPaths = {},
): Codec<TApp, TWire> {
  const fastDecode = fast.decode ? withFastPath(decode, fast.decode) : decode;
  // One schema for both directions (plain strings, enums) stays one schema.
  const fastEncode =
    (encode as unknown) === decode && fast.encode === fast.decode
      ? (fastDecode as unknown as v.GenericSchema<TApp, TWire>)
      : fast.encode
        ? withFastPath(encode, fast.encode)
        : encode;
  return {
    decode: fastDecode,
    encode: fastEncode,
    wire,
    ...(fast.encodeText ? { encodeText: fast.encodeText } : {}),
  };
}
