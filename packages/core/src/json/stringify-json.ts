// Lossless JSON.stringify: JsonNumber and bigint are written as bare numbers with their exact
// digits, and a non-finite number is an error instead of a silent null (money must not vanish).
import { isJsonNumber } from "./json-number";

/**
 * Matches a string that JSON must escape (a quote, a backslash, a control character or a
 * surrogate); strings it does not match are written as they are, between quotes. Anything
 * else goes through JSON.stringify, which escapes exactly as the platform does.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON must escape exactly these.
export const JSON_NEEDS_ESCAPE: RegExp = /["\\\u0000-\u001f\ud800-\udfff]/;

type PathKey = string | number;

/** A string as JSON text, escaped exactly as JSON.stringify escapes it. */
export function jsonString(value: string): string {
  return JSON_NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
}

// Thrown deep in the tree; each container on the way out adds its key, so the final message
// names the full path without tracking it on the hot path.
class PathError extends Error {
  readonly path: PathKey[] = [];
}

/**
 * Like `JSON.stringify(value)` (no spacing, key order kept, toJSON honoured, undefined and
 * functions dropped from objects and written as null in arrays), except that a JsonNumber is
 * written as its raw text, a bigint as its digits, and NaN or ±Infinity throws a TypeError
 * naming the path, e.g. `$.data.amount`. Circular structures throw a TypeError too.
 */
export function stringifyJson(value: unknown): string {
  try {
    const out = write(value, "", []);
    if (out === undefined) {
      throw new TypeError(`stringifyJson: ${typeof value} has no JSON form`);
    }
    return out;
  } catch (error) {
    if (error instanceof PathError) {
      throw new TypeError(
        `stringifyJson: cannot write ${formatPath(error.path)}: ${error.message}`,
      );
    }
    throw error;
  }
}

// Returns undefined for values JSON leaves out (undefined, functions, symbols).
function write(input: unknown, key: string, stack: object[]): string | undefined {
  let value = input;
  if (typeof value === "object" && value !== null) {
    if (isJsonNumber(value)) return value.text;
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") {
      value = toJSON.call(value, key);
      if (isJsonNumber(value)) return value.text;
    }
  }
  switch (typeof value) {
    case "string":
      return jsonString(value);
    case "number":
      if (Number.isFinite(value)) return String(value);
      throw new PathError(
        `${value} is not a JSON number (pass amounts as decimal strings such as "100.50")`,
      );
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      return value.toString();
    case "object":
      if (value === null) return "null";
      if (stack.includes(value)) throw new PathError("the structure is circular");
      if (Array.isArray(value)) return writeArray(value, stack);
      return writeObject(value as Record<string, unknown>, key, stack);
    default:
      return undefined;
  }
}

function writeArray(array: readonly unknown[], stack: object[]): string {
  stack.push(array);
  let index = 0;
  try {
    let out = "[";
    for (; index < array.length; index++) {
      if (index > 0) out += ",";
      out += write(array[index], String(index), stack) ?? "null";
    }
    stack.pop();
    return `${out}]`;
  } catch (error) {
    if (error instanceof PathError) error.path.unshift(index);
    throw error;
  }
}

function writeObject(object: Record<string, unknown>, ownKey: string, stack: object[]): string {
  // Boxed primitives write as their primitive, as in JSON.stringify.
  if (object instanceof Number || object instanceof String || object instanceof Boolean) {
    return write(object.valueOf(), ownKey, stack) ?? "null";
  }
  stack.push(object);
  let key = "";
  try {
    let out = "{";
    let first = true;
    for (key of Object.keys(object)) {
      const item = write(object[key], key, stack);
      if (item === undefined) continue;
      out += `${first ? "" : ","}${jsonString(key)}:${item}`;
      first = false;
    }
    stack.pop();
    return `${out}}`;
  } catch (error) {
    if (error instanceof PathError) error.path.unshift(key);
    throw error;
  }
}

function formatPath(path: readonly PathKey[]): string {
  let out = "$";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(key)) out += `.${key}`;
    else out += `[${JSON.stringify(key)}]`;
  }
  return out;
}
