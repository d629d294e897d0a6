/**
 * Shared pieces of the admin routes' valibot schemas: a strict object whose unknown keys are
 * reported by name, and whole numbers with a range in words.
 */
import * as v from "valibot";

/** The message of a strict object: "is not a known field" on an unknown key, else the type. */
export function strictMessage(issue: { expected: string | null }): string {
  return issue.expected === "never" ? "is not a known field" : "must be a JSON object";
}

/** An object schema that rejects unknown keys, naming each one. */
export function strict<const E extends v.ObjectEntries>(entries: E) {
  return v.strictObject(entries, strictMessage);
}

export function wholeNumber(min: number, max: number = Number.MAX_SAFE_INTEGER) {
  return v.pipe(
    v.number("must be a number"),
    v.integer("must be an integer"),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
  );
}
