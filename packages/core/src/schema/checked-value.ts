// The shape shared by the wire schemas: one check that explains what is wrong, then a transform.
import * as v from "valibot";
import { type FastPath, MISS, withFastPath } from "./fast-path";

export interface CheckedValueOptions<TInput, TOutput> {
  /** Undefined when `input` is acceptable, otherwise the message (e.g. "must be greater than 0"). */
  problem: (input: unknown) => string | undefined;
  /** Turns an accepted input into the output value. */
  output: (input: TInput) => TOutput;
  /**
   * Both in one step, for values where checking and converting repeat the same work: the
   * output, or MISS to let `problem` explain. Must agree with problem and output.
   */
  fast?: FastPath;
}

/**
 * A valibot schema that accepts what `problem` accepts (typed as TInput) and outputs
 * `output(input)`. The issue message is exactly the problem text, so a caller can prefix the
 * field name: "amount must have at most 2 decimal places".
 */
export function checkedValue<TInput, TOutput>({
  problem,
  output,
  fast,
}: CheckedValueOptions<TInput, TOutput>) {
  const schema = v.pipe(
    v.custom<TInput>(
      (input) => problem(input) === undefined,
      (issue) => problem(issue.input) ?? "is invalid",
    ),
    v.transform(output),
  );
  return withFastPath(
    schema,
    fast ?? ((input) => (problem(input) === undefined ? output(input as TInput) : MISS)),
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
