/**
 * A codec describes one wire field once and yields both directions from it:
 * `encode` turns the SDK's value into what goes on the wire (client requests, sandbox responses)
 * and `decode` turns a losslessly parsed wire value into the SDK's value (client responses,
 * sandbox requests). Limits and rules sit in both, so the sandbox enforces exactly what the
 * client checks before sending. `wire` is the JSON Schema of the wire form, for OpenAPI.
 */
import type * as v from "valibot";

/** JSON Schema of a wire value (the subset the OpenAPI generator writes). */
export type WireSchema = { [key: string]: unknown };

export interface Codec<TApp, TWire = unknown> {
  readonly decode: v.GenericSchema<unknown, TApp>;
  readonly encode: v.GenericSchema<TApp, TWire>;
  readonly wire: WireSchema;
  /** Set by `optional()`: the field may be absent. */
  readonly optional?: true;
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
): Codec<TApp, TWire> {
  return { decode, encode, wire };
}
