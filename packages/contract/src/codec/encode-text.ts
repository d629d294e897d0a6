/**
 * Encoding straight to JSON text: `textOf(c)(value)` is `stringifyJson(encode(value))` without
 * building the wire objects in between (the sandbox answers every page this way: building a
 * page's wire tree and then walking it again to write it cost about three times the writing).
 * Plain functions, like the fast paths: the text is exactly what encoding and stringifyJson
 * give, or MISS (the caller then encodes with the schema, which reports the issues); undefined
 * means "no JSON form", an absent optional field, which an object leaves out.
 */
import { isJsonNumber, jsonString, stringifyJson } from "@merchantkit/core";
import type * as v from "valibot";
import { type AnyCodec, encodePath, encodeWire } from "./codec";
import { isPlainObject, MISS, type Miss } from "./fast-path";
import { skipIfMissing } from "./object-walk";

export type TextPath = (input: unknown) => string | undefined | Miss;

/** The JSON text of a wire value a fast path made; MISS where stringifyJson would throw. */
function wireText(wire: unknown): string | undefined | Miss {
  switch (typeof wire) {
    case "string":
      return jsonString(wire);
    case "number":
      return Number.isFinite(wire) ? String(wire) : MISS;
    case "boolean":
      return wire ? "true" : "false";
    case "undefined":
      return undefined;
    case "object":
      if (wire === null) return "null";
      if (isJsonNumber(wire)) return wire.text;
      try {
        return stringifyJson(wire);
      } catch {
        return MISS;
      }
    default:
      return MISS;
  }
}

const supplied = new WeakMap<AnyCodec, TextPath>();

/** A codec's text path: its own, or one through its encode direction's fast path. */
export function textOf(c: AnyCodec): TextPath {
  if (c.fast?.text) return c.fast.text;
  let text = supplied.get(c);
  if (!text) {
    const write = encodePath(c);
    text = (input) => {
      const wire = write(input);
      return wire === MISS ? MISS : wireText(wire);
    };
    supplied.set(c, text);
  }
  return text;
}

/** `stringifyJson(encode(value))` through the text path, with the schema's issues on failure. */
export function encodeText(
  c: AnyCodec,
  value: unknown,
): { success: true; text: string } | { success: false; issues: v.BaseIssue<unknown>[] } {
  const text = textOf(c)(value);
  if (typeof text === "string") return { success: true, text };
  const result = encodeWire(c, value);
  if (!result.success) return { success: false, issues: result.issues };
  return { success: true, text: stringifyJson(result.output) };
}

/**
 * A strict object's text: known keys in shape order, absent optional fields left out, any
 * other key (or anything not a plain object) handed to the schema.
 */
export function objectText(entries: v.ObjectEntries, texts: Record<string, TextPath>): TextPath {
  const fields = Object.entries(entries).map(([key, schema]) => ({
    key,
    text: texts[key] as TextPath,
    skipIfMissing: skipIfMissing(schema),
    // The key's JSON text, with and without the comma before it, written once.
    first: `${jsonString(key)}:`,
    next: `,${jsonString(key)}:`,
  }));
  const known = (key: string) => Object.hasOwn(entries, key);
  return (input) => {
    if (!isPlainObject(input)) return MISS;
    for (const key in input) if (!known(key)) return MISS;
    let out = "{";
    for (const field of fields) {
      const value = input[field.key];
      if (value === undefined && !(field.key in input)) {
        if (field.skipIfMissing) continue;
        return MISS;
      }
      const text = field.text(value);
      if (text === MISS) return MISS;
      if (text !== undefined) out += (out.length === 1 ? field.first : field.next) + text;
    }
    return `${out}}`;
  };
}

/** An array's text: items by their own text, undefined items as null (as JSON.stringify does). */
export function arrayText(item: TextPath, minItems: number, maxItems: number): TextPath {
  return (input) => {
    if (!Array.isArray(input) || input.length < minItems || input.length > maxItems) return MISS;
    let out = "[";
    for (let i = 0; i < input.length; i++) {
      const text = item(input[i]);
      if (text === MISS) return MISS;
      out += `${i === 0 ? "" : ","}${text ?? "null"}`;
    }
    return `${out}]`;
  };
}
