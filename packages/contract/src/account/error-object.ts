/**
 * The account area's structured `error` object (omitted when null). Its fields are not shown
 * anywhere, so this shape is our design (ASSUMPTIONS.md): clients parse `ApiError.detail` with
 * `accountErrorObject.decode` (safeParse, keeping the raw value when it does not fit) and the
 * sandbox writes it with `.encode`.
 */
import * as v from "valibot";
import * as c from "../codec";
import { type Codec, codec } from "../codec/codec";

/**
 * Local codec: a business code the service may send as a string or as a JSON integer (the
 * envelope reader accepts both for respCode); always a string in the SDK and on our wire.
 */
export function accountCodeText(): Codec<string, string> {
  const text = v.pipe(v.string("must be a code"), v.nonEmpty("must not be empty"));
  const decode = v.union(
    [
      text,
      v.pipe(
        v.number(),
        v.integer(),
        v.transform((n) => String(n)),
      ),
    ],
    "must be a code (a string or an integer)",
  );
  return codec(decode, text, { type: "string" });
}

/** One problem behind the error, e.g. the field a 40001 "invalid parameter" is about. */
export const accountErrorDetail = c.object({
  field: c.optional(c.string()),
  message: c.optional(c.string()),
});

export const accountErrorObject = c.object({
  /** The business code again (the respCode), or a finer code of the service. */
  code: accountCodeText(),
  message: c.optional(c.string()),
  details: c.optional(c.array(accountErrorDetail)),
  /** The service's trace id, to quote to support. */
  traceId: c.optional(c.string()),
});
