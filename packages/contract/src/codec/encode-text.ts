/**
 * Encoding straight to JSON text: `encodeText(app)` is `stringifyJson(encode(app))` without
 * building the wire objects in between. The sandbox answers every page through it; building a
 * page's wire tree and then walking it again to write it cost more than both together should.
 *
 * Same contract as the fast paths: the text is exactly what encoding and then stringifyJson
 * would give, or MISS (the caller then encodes with the schema, which reports the issues);
 * undefined means "no JSON form", an absent optional field, which an object leaves out.
 */
import {
  type FastPath,
  fastPathOf,
  isJsonNumber,
  isPlainObject,
  JSON_NEEDS_ESCAPE,
  jsonString,
  MISS,
  type Miss,
  stringifyJson,
} from "@merchantkit/core";
import type * as v from "valibot";
import type { AnyCodec } from "./codec";
import { inlineOf, inlineTextStatements } from "./inline-leaf";
import { compileWalk, ifMissing } from "./object-fast-path";

export type TextPath = (input: unknown) => string | undefined | Miss;

/** The JSON text of a wire value made by a fast path; MISS where stringifyJson would throw. */
export function wireText(wire: unknown): string | undefined | Miss {
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

/** Text through the encode direction's fast path: right for every codec, fast for leaves. */
export function textThrough(encode: FastPath): TextPath {
  return (input) => {
    const wire = encode(input);
    return wire === MISS ? MISS : wireText(wire);
  };
}

interface TextField {
  key: string;
  text: TextPath;
  required: boolean;
}

/**
 * A strict object's text, compiled like its fast path (object-fast-path.ts): known keys in
 * shape order, absent optional fields left out, any other key handed to the schema.
 * `undefined` where the shape cannot be compiled; the caller then goes through the fast path.
 */
export function objectText(
  entries: v.ObjectEntries,
  texts: Record<string, TextPath>,
  compile: boolean,
): TextPath | undefined {
  const fields: TextField[] = Object.entries(entries).map(([key, schema]) => ({
    key,
    text: texts[key] as TextPath,
    required: ifMissing(schema) === "miss",
  }));
  if (!compile || fields.some((f) => f.key in Object.prototype)) return undefined;
  const literal = (key: string) => JSON.stringify(key);
  const cases = fields.map((f) => `case ${literal(f.key)}:`).join("");
  const lines = [
    "if (!isPlainObject(input)) return MISS;",
    `for (const k in input) switch (k) { ${cases} break; default: return MISS; }`,
    'let out = "{";',
    "let t, v;",
  ];
  fields.forEach((f, i) => {
    const key = literal(f.key);
    // The key's JSON text, with and without the comma before it, written once here rather
    // than escaped and joined for every record (each join is a string to collect).
    const keyText = jsonString(f.key);
    const prefix = `(out.length === 1 ? ${JSON.stringify(`${keyText}:`)} : ${JSON.stringify(`,${keyText}:`)})`;
    const keyQuote = `(out.length === 1 ? ${JSON.stringify(`${keyText}:"`)} : ${JSON.stringify(`,${keyText}:"`)})`;
    const inline = inlineOf(f.text);
    const write = inline
      ? inlineTextStatements(inline, i, keyQuote)
      : `t = text[${i}](v); if (t === MISS) return MISS;`;
    lines.push(
      `v = input[${key}]; if (v !== undefined || ${key} in input) { ${write}` +
        ` if (t !== undefined) out += ${prefix} + t; }` +
        (f.required ? " else return MISS;" : ""),
    );
  });
  lines.push('return out + "}";');
  return compileWalk("objectText", lines, {
    MISS,
    isPlainObject,
    needsEscape: JSON_NEEDS_ESCAPE,
    text: fields.map((f) => f.text),
    enums: fields.map((f) => inlineOf(f.text)?.texts),
  }) as TextPath;
}

/** An array's text: items by their own text, undefined items as null (as JSON.stringify does). */
export function arrayText(item: TextPath, minItems: number, maxItems: number): TextPath {
  return (input) => {
    if (!Array.isArray(input) || input.length < minItems || input.length > maxItems) return MISS;
    let out = "[";
    for (let i = 0; i < input.length; i++) {
      const t = item(input[i]);
      if (t === MISS) return MISS;
      out += `${i === 0 ? "" : ","}${t ?? "null"}`;
    }
    return `${out}]`;
  };
}

const supplied = new WeakMap<AnyCodec, TextPath>();

/** A codec's text path: its own, or one through its encode direction's fast path. */
export function textOf(c: AnyCodec): TextPath {
  if (c.encodeText) return c.encodeText;
  let text = supplied.get(c);
  if (!text) {
    text = textThrough(fastPathOf(c.encode));
    supplied.set(c, text);
  }
  return text;
}
