// Checks of numeric client and call options, refused naming the option and the rule: a call's
// with a RequestValidationError before anything is sent, a client's with a ConfigurationError
// when it is built. NaN (as from `Number(process.env.X)` unset) passes a `< 0` test and would
// make a timer fire at once or a deadline never come: finiteness is checked too.
import { ConfigurationError, RequestValidationError } from "../errors/local-errors";

/** Whose option is checked: a call's (the default) or a client's, at construction. */
export type OptionOwner = "call" | "client";

function refuse(path: string, rule: string, owner: OptionOwner): never {
  if (owner === "client") throw new ConfigurationError(`${path}: ${rule}`);
  throw new RequestValidationError([{ path, message: rule }]);
}

/** `value`, or `fallback` when not given; refused unless a non-negative integer. */
export function nonNegativeInt(
  value: number | undefined,
  fallback: number,
  path: string,
  owner: OptionOwner = "call",
): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0) refuse(path, "must be a non-negative integer", owner);
  return value;
}

/**
 * The longest delay a timer takes (setTimeout, and so ky's timeout): 2^31 - 1 ms, about 24.8
 * days. A longer one fires at once (ky throws a RangeError instead).
 */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * `value`, or `fallback` when not given; refused unless a finite number of ms from `min` to
 * MAX_TIMER_MS. A timeout takes `min` 1: 0 or less would abort every attempt at once.
 */
export function milliseconds(
  value: number | undefined,
  fallback: number,
  path: string,
  min = 0,
  owner: OptionOwner = "call",
): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < min || value > MAX_TIMER_MS)
    refuse(path, `must be a number of milliseconds from ${min} to ${MAX_TIMER_MS}`, owner);
  return value;
}

/**
 * An options object that names `idempotencyKey` with the value undefined (or null) is refused:
 * it is what `create(params, { idempotencyKey: error.idempotencyKey })` sends after an error
 * that carries no key (a read that failed, a wait that ran out), and taken as "no key" it would
 * send the write again under a newly minted one: a second payout. Leaving the option out still
 * mints one. A blank key ("", or only whitespace, as a trimmed-away config value leaves) is
 * refused too: it names no write, and the service would take every such write for one. With
 * `name`, the same for the params' own key field (clientRequestId, requestId, profitReference),
 * the other place a key is given.
 */
export function refuseUnusableIdempotencyKey(
  holder: object,
  path?: string,
  name = "idempotencyKey",
): void {
  if (!(name in holder)) return;
  const value = (holder as Record<string, unknown>)[name];
  const where = name === "idempotencyKey" ? "option" : "field";
  let rule: string;
  if (value === undefined || value === null)
    rule = `is ${value}: pass the key the earlier attempt was sent with (error.idempotencyKey of an error that carries one) or leave the ${where} out; an unset key would send the request under a new key`;
  else if (typeof value === "string" && value.trim() === "")
    rule = `must not be blank (empty or only whitespace): pass a key or leave the ${where} out to have one generated`;
  else return;
  throw new RequestValidationError(
    [{ path: name, message: rule }],
    path === undefined ? {} : { path },
  );
}
