/**
 * Shared pieces of the issuing admin routes: body fields, and `guarded`, which runs a route
 * after the due transitions and turns a refused action (a SandboxError from a lifecycle, an
 * amount with too many decimals) into the admin API's { error } answer instead of a 500.
 */
import type { Context } from "hono";
import * as v from "valibot";
import { adminError, adminJson } from "../admin/admin-http";
import { wholeNumber } from "../admin/admin-schemas";
import { SandboxError } from "../runtime/sandbox-error";
import type { IssuingContext } from "./issuing-context";

export const decimalText = v.pipe(
  v.string('must be a decimal string such as "12.30"'),
  v.regex(/^\d+(\.\d+)?$/, 'must be a decimal string such as "12.30"'),
);

export const text = v.pipe(v.string("must be a string"), v.minLength(1, "must not be empty"));

/** Epoch milliseconds; defaults to the clock's now where it is optional. */
export const epochMs = wholeNumber(0);

export function guarded(
  ctx: IssuingContext,
  route: (c: Context) => Response | Promise<Response>,
): (c: Context) => Promise<Response> {
  return async (c) => {
    ctx.runtime.scheduler.runDue(ctx.runtime.clock.now());
    try {
      return await route(c);
    } catch (error) {
      if (error instanceof SandboxError) {
        return adminJson({ error: error.message, respCode: error.respCode }, 409);
      }
      if (error instanceof RangeError) return adminError(error.message, 400);
      throw error;
    }
  };
}
