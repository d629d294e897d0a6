/**
 * The fast path of an object codec: the walk valibot's object schemas make (known keys in shape
 * order, absent optional keys skipped, unknown keys copied by a loose object or refused by a
 * strict one), with each field's own fast path and no datasets. A value the walk is not sure of
 * (not a plain object, a default to fill in, a field that MISSes) goes to the schema.
 */
import type * as v from "valibot";
import { type FastPath, isPlainObject, type Keeps, keeps, MISS } from "./fast-path";

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
  /** Values `fast` gives back as they are, checked inline (fast-path.ts). */
  keeps: Keeps | undefined;
  /** A missing key is skipped (an optional field) or left to the schema (anything else). */
  skipIfMissing: boolean;
}

/**
 * `entries` are the object schema's entries, `fast` each one's fast path, `kept` the values each
 * gives back as they are (a decode's, where its codec states them). Undefined for a shape
 * naming a member of Object.prototype (`key in input` would find it on every object; there is
 * none in the contract): such an object keeps the schema's own walk.
 */
export function objectWalk(
  entries: v.ObjectEntries,
  fast: Record<string, FastPath>,
  unknownKeys: UnknownKeys,
  kept: Record<string, Keeps | undefined> = {},
): FastPath | undefined {
  const fields: Field[] = Object.entries(entries).map(([key, schema]) => ({
    key,
    fast: fast[key] as FastPath,
    keeps: kept[key],
    skipIfMissing: skipIfMissing(schema),
  }));
  if (fields.some((f) => f.key in Object.prototype)) return undefined;
  const known = (key: string) => hasOwn.call(entries, key);
  // One loop over the fields for every shape: V8 sees all shapes at its property accesses, so
  // each is a generic lookup. Code specialised per shape would be faster, but only code
  // generation makes it, which the SDK does not do (it would not run under a strict
  // Content-Security-Policy either).
  /**
   * How many of the input's keys are the shape's, when they already stand as the schema's output
   * would have them: the shape's keys in shape order, then the unknown ones a loose object
   * copies (none a strict object refuses or a loose one drops); -1 otherwise, or when a field
   * the walk would read is absent but inherited, or required and missing (the copying walk
   * then answers). Reads no values and changes nothing. The keys are read with for-in, which
   * walks V8's cached key list: Object.keys and Object.values made two arrays per record, a
   * quarter of what decoding a page of card transactions allocated. for-in lists inherited
   * keys too, so it is used only where there are none (listsOwnKeysOnly).
   */
  const inOrder = (input: Record<string, unknown>): number => {
    let next = 0;
    let count = 0;
    for (const key in input) {
      while (next < fields.length && (fields[next] as Field).key !== key) {
        if (!absentOk(fields[next] as Field, input)) return -1;
        next++;
      }
      if (next < fields.length) {
        next++;
        count++;
      } else if (
        unknownKeys === "refuse" ||
        known(key) ||
        key === "__proto__" ||
        key === "prototype" ||
        key === "constructor"
      ) {
        return -1;
      }
    }
    for (; next < fields.length; next++) if (!absentOk(fields[next] as Field, input)) return -1;
    return count;
  };
  return (input, owned) => {
    if (!isPlainObject(input)) return MISS;
    if (owned && listsOwnKeysOnly()) {
      const count = inOrder(input);
      if (count >= 0) {
        // Decoded in place: each value replaced where it stands, unknown keys left as they are.
        let next = 0;
        let done = 0;
        for (const key in input) {
          if (done++ === count) break;
          while ((fields[next] as Field).key !== key) next++;
          const field = fields[next] as Field;
          next++;
          const value = input[key];
          if (field.keeps !== undefined && keeps(field.keeps, value)) continue;
          const result = field.fast(value, true);
          if (result === MISS) return MISS;
          if (result !== value) input[key] = result;
        }
        return input;
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
        const result =
          field.keeps !== undefined && keeps(field.keeps, value) ? value : field.fast(value, owned);
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

/**
 * True when for-in over a plain object lists exactly its own keys, as Object.keys does: nothing
 * has made a property of Object.prototype enumerable (a polluted prototype).
 */
function listsOwnKeysOnly(): boolean {
  for (const _ in Object.prototype) return false;
  return true;
}

/** A field absent from the input's own keys: skipped by the walk, and not found on the prototype. */
function absentOk(field: Field, input: Record<string, unknown>): boolean {
  return field.skipIfMissing && !(field.key in input);
}

/** An optional schema without a default or fallback to fill in: a missing key is just absent. */
export function skipIfMissing(schema: v.GenericSchema): boolean {
  const s = schema as { type: string; default?: unknown; fallback?: unknown };
  const optional = OPTIONAL_TYPES.has(s.type);
  const fills = (optional && s.default !== undefined) || s.fallback !== undefined;
  return optional && !fills;
}
