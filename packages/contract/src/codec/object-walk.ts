/**
 * The fast path of an object codec: the walk valibot's object schemas make (known keys in shape
 * order, absent optional keys skipped, unknown keys copied by a loose object or refused by a
 * strict one), with each field's own fast path and no datasets. A value the walk is not sure of
 * (not a plain object, a default to fill in, a field that MISSes) goes to the schema.
 */
import type * as v from "valibot";
import { type FastPath, isPlainObject, MISS } from "./fast-path";

const OPTIONAL_TYPES = new Set(["optional", "nullish", "exact_optional"]);
const hasOwn = Object.prototype.hasOwnProperty;

/**
 * `unknownKeys`: "copy" (loose objects: extra fields pass through untouched) or "refuse"
 * (strict objects: an extra field is the caller's typo, for the schema to report).
 */
export type UnknownKeys = "copy" | "refuse";

interface Field {
  key: string;
  fast: FastPath;
  /** A missing key is skipped (an optional field) or left to the schema (anything else). */
  skipIfMissing: boolean;
}

/**
 * `entries` are the object schema's entries, `fast` each one's fast path. Undefined for a shape
 * naming a member of Object.prototype (`key in input` would find it on every object; there is
 * none in the contract): such an object keeps the schema's own walk.
 */
export function objectWalk(
  entries: v.ObjectEntries,
  fast: Record<string, FastPath>,
  unknownKeys: UnknownKeys,
): FastPath | undefined {
  const fields: Field[] = Object.entries(entries).map(([key, schema]) => ({
    key,
    fast: fast[key] as FastPath,
    skipIfMissing: skipIfMissing(schema),
  }));
  if (fields.some((f) => f.key in Object.prototype)) return undefined;
  const known = (key: string) => hasOwn.call(entries, key);
  // One loop over the fields for every shape: V8 sees all shapes at its property accesses, so
  // each is a generic lookup. Code specialised per shape would be faster, but only code
  // generation makes it, which the SDK does not do (it would not run under a strict
  // Content-Security-Policy either).
  /**
   * True when `input`'s own keys already stand as the schema's output would have them: the
   * shape's keys in shape order, then the unknown ones a loose object copies (none a strict
   * object refuses or a loose one drops), and nothing inherited among them. Counts the shape's
   * keys found, so the walk can tell when it read one that is not an own property.
   */
  const inOrder = (input: Record<string, unknown>): number => {
    let next = 0;
    let own = 0;
    let extra = false;
    for (const key in input) {
      if (!hasOwn.call(input, key)) return -1;
      if (known(key)) {
        if (extra) return -1;
        while (next < fields.length && (fields[next] as Field).key !== key) next++;
        if (next === fields.length) return -1;
        next++;
        own++;
      } else if (
        unknownKeys === "refuse" ||
        key === "__proto__" ||
        key === "prototype" ||
        key === "constructor"
      ) {
        return -1;
      } else {
        extra = true;
      }
    }
    return own;
  };
  return (input, owned) => {
    if (!isPlainObject(input)) return MISS;
    if (owned) {
      const own = inOrder(input);
      if (own >= 0) {
        // Decoded in place: each value replaced where it stands, unknown keys left as they are.
        let read = 0;
        for (const field of fields) {
          const value = input[field.key];
          if (value !== undefined || field.key in input) {
            read++;
            const result = field.fast(value, true);
            if (result === MISS) return MISS;
            if (result !== value) input[field.key] = result;
          } else if (!field.skipIfMissing) {
            return MISS;
          }
        }
        // A shape key found only on the prototype: the copying walk's answer is wanted, and
        // the input may have changed, so the caller's fresh copy is.
        return read === own ? input : MISS;
      }
    }
    if (unknownKeys === "refuse") {
      for (const key in input) if (!known(key)) return MISS;
    }
    const out: Record<string, unknown> = {};
    for (const field of fields) {
      const value = input[field.key];
      // One read per key: a JSON value is never undefined, so `in` runs only for absent keys.
      if (value !== undefined || field.key in input) {
        const result = field.fast(value, owned);
        if (result === MISS) return MISS;
        out[field.key] = result;
      } else if (!field.skipIfMissing) {
        return MISS;
      }
    }
    if (unknownKeys === "copy") {
      // valibot's loose object copies own keys outside the shape, except the three that could
      // reach a prototype when assigned.
      for (const key in input) {
        if (
          !known(key) &&
          hasOwn.call(input, key) &&
          key !== "__proto__" &&
          key !== "prototype" &&
          key !== "constructor"
        ) {
          out[key] = input[key];
        }
      }
    }
    return out;
  };
}

/** An optional schema without a default or fallback to fill in: a missing key is just absent. */
export function skipIfMissing(schema: v.GenericSchema): boolean {
  const s = schema as { type: string; default?: unknown; fallback?: unknown };
  const optional = OPTIONAL_TYPES.has(s.type);
  const fills = (optional && s.default !== undefined) || s.fallback !== undefined;
  return optional && !fills;
}
