// Checks of numeric client and call options, refused with a RequestValidationError naming the
// option before anything is sent. NaN (as from `Number(process.env.X)` unset) passes a `< 0`
// test and would make a timer fire at once or a deadline never come: finiteness is checked too.
import { RequestValidationError } from "../errors/local-errors";

function refuse(path: string, rule: string): never {
  throw new RequestValidationError([{ path, message: rule }]);
}

/** `value`, or `fallback` when not given; refused unless a non-negative integer. */
export function nonNegativeInt(value: number | undefined, fallback: number, path: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0) refuse(path, "must be a non-negative integer");
  return value;
}

/** `value`, or `fallback` when not given; refused unless a finite number of ms, at least `min`. */
export function milliseconds(
  value: number | undefined,
  fallback: number,
  path: string,
  min = 0,
): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < min)
    refuse(
      path,
      min === 0
        ? "must be a non-negative number of milliseconds"
        : `must be a number of milliseconds, at least ${min}`,
    );
  return value;
}
