/**
 * The ground-truth dump as a stream of JSON text: the top levels are walked and large arrays
 * are written in slices, so a generated data set of a million records never has to exist as
 * one string (V8 caps strings near 512 MB). Each leaf goes through stringifyJson, so 64-bit ids
 * and decimal texts stay exact; the result is the same text stringifyJson would give.
 */
import { stringifyJson } from "@merchantkit/core";

/** Object levels walked before a value is written whole (arrays are sliced at any of them). */
const WALK_DEPTH = 4;
/** Array items written per chunk. */
const SLICE = 500;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  // Objects with toJSON (Date, JsonNumber...) are written whole by stringifyJson.
  return (proto === Object.prototype || proto === null) && !("toJSON" in value);
}

/** JSON text of `value` in pieces. */
export function* jsonChunks(value: unknown, depth = 0): Generator<string> {
  if (depth < WALK_DEPTH && Array.isArray(value)) {
    yield "[";
    for (let i = 0; i < value.length; i += SLICE) {
      const slice = value.slice(i, i + SLICE);
      // Items of an array that JSON drops (undefined, functions) are written as null.
      const text = stringifyJson(slice);
      yield (i > 0 ? "," : "") + text.slice(1, -1);
    }
    yield "]";
    return;
  }
  if (depth < WALK_DEPTH && isPlainObject(value)) {
    yield "{";
    let first = true;
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined || typeof item === "function" || typeof item === "symbol") continue;
      yield `${first ? "" : ","}${stringifyJson(key)}:`;
      first = false;
      yield* jsonChunks(item, depth + 1);
    }
    yield "}";
    return;
  }
  yield stringifyJson(value);
}

/** A byte stream of the chunks, pulled as the client reads. */
export function jsonStream(value: unknown): ReadableStream<Uint8Array> {
  const chunks = jsonChunks(value);
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      // A few chunks per pull keeps the number of tiny writes down.
      let text = "";
      for (let n = 0; n < 64; n++) {
        const next = chunks.next();
        if (next.done) {
          if (text) controller.enqueue(encoder.encode(text));
          controller.close();
          return;
        }
        text += next.value;
        if (text.length > 65_536) break;
      }
      controller.enqueue(encoder.encode(text));
    },
  });
}
