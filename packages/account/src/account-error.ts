/**
 * Typed access to the account area's structured `error` object, which core keeps (redacted) on
 * `ApiError.detail`. Its shape is not documented, so it is read with the contract's lenient
 * codec and the raw value stays on `detail` when it does not fit.
 */
import { accountErrorObject } from "@merchantkit/contract";
import { isApiError } from "@merchantkit/core";
import * as v from "valibot";
import type { AccountErrorObject } from "./types";

/**
 * The `error` object of a failed account call: `{ code, message?, details?: [{ field?,
 * message? }], traceId? }`, or undefined when `error` is not an ApiError, carries none, or
 * carries one of another shape.
 */
export function accountErrorOf(error: unknown): AccountErrorObject | undefined {
  if (!isApiError(error) || error.detail === undefined) return undefined;
  const parsed = v.safeParse(accountErrorObject.decode, error.detail);
  return parsed.success ? parsed.output : undefined;
}
