// The shape shared by the wire schemas: one check that explains what is wrong, then a transform.
import * as v from "valibot";

export interface CheckedValueOptions<TInput, TOutput> {
  /** Undefined when `input` is acceptable, otherwise the message (e.g. "must be greater than 0"). */
  problem: (input: unknown) => string | undefined;
  /** Turns an accepted input into the output value. */
  output: (input: TInput) => TOutput;
}

/**
 * A valibot schema that accepts what `problem` accepts (typed as TInput) and outputs
 * `output(input)`. The issue message is exactly the problem text, so a caller can prefix the
 * field name: "amount must have at most 2 decimal places".
 */
export function checkedValue<TInput, TOutput>({
  problem,
  output,
}: CheckedValueOptions<TInput, TOutput>) {
  return v.pipe(
    v.custom<TInput>(
      (input) => problem(input) === undefined,
      (issue) => problem(issue.input) ?? "is invalid",
    ),
    v.transform(output),
  );
}

/** How an unexpected input is named in messages: "a number", "null", "an object". */
export function describeInput(input: unknown): string {
  if (input === null) return "null";
  if (input === undefined) return "undefined";
  if (Array.isArray(input)) return "an array";
  if (typeof input === "object") return "an object";
  return `a ${typeof input}`;
}
