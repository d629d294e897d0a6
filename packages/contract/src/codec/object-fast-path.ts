/**
 * Fast paths for object schemas: the same walk valibot's object schemas make (known keys in
 * shape order, missing optional keys skipped, unknown keys copied by a loose object or refused
 * by a strict one), with each field's own fast path and no datasets. A value the walk is not
 * sure of (not a plain object, a default to fill in, a field that MISSes) goes to the schema.
 *
 * The walk is compiled with `new Function` into straight-line code with one property access
 * per key, which V8 caches per call site; a loop over the keys would be a generic lookup per
 * field, about three times slower for a page of records. Where code generation is not allowed
 * (a Content-Security-Policy, some edge runtimes) the same walk runs as a loop.
 */
import { type FastPath, fastPathOf, isPlainObject, MISS } from "@merchantkit/core";
import type * as v from "valibot";
import { inlineOf, inlineValueStatements } from "./inline-leaf";

const OPTIONAL_TYPES = new Set(["optional", "nullish", "exact_optional"]);
const hasOwn = Object.prototype.hasOwnProperty;

interface Field {
  key: string;
  fast: FastPath;
  /** What a missing key means: skip it (optional), or let the schema decide (required, or a
   * default or fallback to fill in). */
  ifMissing: "skip" | "miss";
}

/**
 * `unknownKeys`: "copy" (loose objects: extra fields pass through untouched) or "refuse"
 * (strict objects: an extra field is the caller's typo, for the schema to report).
 */
export type UnknownKeys = "copy" | "refuse";

export function objectFastPath(
  entries: v.ObjectEntries,
  unknownKeys: UnknownKeys,
  compile = canCompile(),
): FastPath | undefined {
  const fields = fieldsOf(entries);
  // `key in input` would find Object.prototype's members on every plain object; such shapes
  // (none in the contract) keep the schema's own walk.
  if (fields.some((f) => f.key in Object.prototype)) return undefined;
  return compile ? compiledWalk(fields, unknownKeys) : loopWalk(fields, entries, unknownKeys);
}

function fieldsOf(entries: v.ObjectEntries): Field[] {
  return Object.entries(entries).map(([key, schema]) => ({
    key,
    fast: fastPathOf(schema),
    ifMissing: ifMissing(schema),
  }));
}

/**
 * What a walk does when an entry's key is missing: skip it (an optional schema), or leave the
 * object to the schema (a required key to report, or a default or fallback to fill in).
 */
export function ifMissing(schema: v.GenericSchema): "skip" | "miss" {
  const s = schema as { type: string; default?: unknown; fallback?: unknown };
  const optional = OPTIONAL_TYPES.has(s.type);
  const fills = (optional && s.default !== undefined) || s.fallback !== undefined;
  return optional && !fills ? "skip" : "miss";
}

let compileAllowed: boolean | undefined;

/** True where `new Function` is allowed (not under a strict Content-Security-Policy). */
export function canCompile(): boolean {
  if (compileAllowed === undefined) {
    try {
      compileAllowed = new Function("return true")() === true;
    } catch {
      compileAllowed = false;
    }
  }
  return compileAllowed;
}

/**
 * A function of `input` whose body is `lines`, seeing only `bindings` (by name) besides its
 * argument. Callers write keys into the code only as JSON string literals.
 */
export function compileWalk(
  name: string,
  lines: readonly string[],
  bindings: Record<string, unknown>,
): (input: unknown) => unknown {
  const names = Object.keys(bindings);
  const factory = new Function(
    ...names,
    `return function ${name}(input) {\n${lines.join("\n")}\n};`,
  );
  return factory(...names.map((n) => bindings[n]));
}

function compiledWalk(fields: Field[], unknownKeys: UnknownKeys): FastPath {
  // Keys enter the code only as JSON string literals, never as code.
  const literal = (key: string) => JSON.stringify(key);
  const knownCases = fields.map((f) => `case ${literal(f.key)}:`).join("");
  const lines: string[] = ["if (!isPlainObject(input)) return MISS;"];
  if (unknownKeys === "refuse") {
    lines.push(`for (const k in input) switch (k) { ${knownCases} break; default: return MISS; }`);
  }
  lines.push("const out = {};", "let value, v;");
  fields.forEach((f, i) => {
    const key = literal(f.key);
    const inline = inlineOf(f.fast);
    const read = inline
      ? inlineValueStatements(inline, i)
      : `value = fast[${i}](v); if (value === MISS) return MISS;`;
    // One read per key: a JSON value is never undefined, so `in` runs only for absent keys.
    lines.push(
      `v = input[${key}]; if (v !== undefined || ${key} in input) { ${read} out[${key}] = value; }` +
        (f.ifMissing === "miss" ? " else return MISS;" : ""),
    );
  });
  if (unknownKeys === "copy") {
    // valibot's loose object copies own keys outside the shape, except the three that could
    // reach a prototype when assigned.
    lines.push(
      `for (const k in input) switch (k) { ${knownCases} case "__proto__": case "prototype": case "constructor": break;`,
      "default: if (hasOwn.call(input, k)) out[k] = input[k]; }",
    );
  }
  lines.push("return out;");
  return compileWalk("objectFastPath", lines, {
    MISS,
    isPlainObject,
    hasOwn,
    fast: fields.map((f) => f.fast),
    enums: fields.map((f) => inlineOf(f.fast)?.texts),
  }) as FastPath;
}

function loopWalk(fields: Field[], entries: v.ObjectEntries, unknownKeys: UnknownKeys): FastPath {
  return (input) => {
    if (!isPlainObject(input)) return MISS;
    if (unknownKeys === "refuse") {
      for (const key in input) if (!hasOwn.call(entries, key)) return MISS;
    }
    const out: Record<string, unknown> = {};
    for (const field of fields) {
      if (field.key in input) {
        const value = field.fast(input[field.key]);
        if (value === MISS) return MISS;
        out[field.key] = value;
      } else if (field.ifMissing === "miss") {
        return MISS;
      }
    }
    if (unknownKeys === "copy") {
      for (const key in input) {
        if (
          hasOwn.call(input, key) &&
          key !== "__proto__" &&
          key !== "prototype" &&
          key !== "constructor" &&
          !hasOwn.call(entries, key)
        ) {
          out[key] = input[key];
        }
      }
    }
    return out;
  };
}
