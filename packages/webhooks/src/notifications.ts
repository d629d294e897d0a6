/**
 * Payout and profit-share result notifications (provider-notes §1): the body carries a `sign`,
 * the SHA-256 of its other fields' values sorted by name plus the merchant secret key. Every
 * field except `sign` takes part, including fields this SDK does not know yet, so the check is
 * made on the losslessly parsed wire object before any schema touches it.
 */
import {
  type AppOf,
  payoutResultNotification,
  profitShareResultNotification,
} from "@merchantkit/contract";
import {
  parseJson,
  ResponseValidationError,
  SignatureError,
  sign,
  stringifyJson,
  toValidationIssues,
  verifySign,
} from "@merchantkit/core";
import * as v from "valibot";
import { rawBodyText } from "./raw-body";

export type PayoutResultNotification = AppOf<typeof payoutResultNotification>;
export type ProfitShareResultNotification = AppOf<typeof profitShareResultNotification>;

export interface NotificationInput {
  /** The body exactly as received. */
  rawBody: unknown;
  /** The merchant secret key (the one that signs requests). */
  secretKey: string;
}

/** Verifies a notification's `sign` and returns its wire object (numbers kept exact). */
export async function verifyNotification({
  rawBody,
  secretKey,
}: NotificationInput): Promise<Record<string, unknown>> {
  if (typeof secretKey !== "string" || secretKey === "")
    throw new SignatureError(
      "bad_secret",
      "secretKey must be the merchant secret key (a non-empty string).",
    );
  const text = rawBodyText(rawBody);
  let body: unknown;
  try {
    body = parseJson(text);
  } catch (error) {
    throw new ResponseValidationError([{ path: "", message: "body is not valid JSON" }], {
      path: "notification",
      cause: error,
      malformed: true,
    });
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new ResponseValidationError([{ path: "", message: "body is not a JSON object" }], {
      path: "notification",
    });
  }
  const record = body as Record<string, unknown>;
  if (typeof record.sign !== "string" || record.sign === "") {
    throw new SignatureError("missing_sign", "The notification carries no sign.");
  }
  if (!(await signMatches(record, secretKey))) {
    throw new SignatureError(
      "no_match",
      "The notification's sign does not match: check the secret key and that the body is passed exactly as received.",
    );
  }
  return record;
}

/**
 * verifySign over a body nobody has authenticated yet: a body its signing walk cannot take (a
 * field nested thousands deep overflows the stack) is a malformed body, not a RangeError.
 */
async function signMatches(record: Record<string, unknown>, secretKey: string): Promise<boolean> {
  try {
    return await verifySign(record, secretKey);
  } catch (error) {
    throw new ResponseValidationError(
      [{ path: "", message: "body cannot be signed (nested too deeply)" }],
      {
        path: "notification",
        cause: error,
        malformed: true,
      },
    );
  }
}

function decode<T>(
  schema: v.GenericSchema<unknown, T>,
  wire: Record<string, unknown>,
  what: string,
): T {
  const result = v.safeParse(schema, wire);
  if (!result.success)
    throw new ResponseValidationError(toValidationIssues(result.issues), { path: what });
  return result.output;
}

export async function constructPayoutResultNotification(
  input: NotificationInput,
): Promise<PayoutResultNotification> {
  return decode(
    payoutResultNotification.decode,
    await verifyNotification(input),
    "payout result notification",
  );
}

export async function constructProfitShareResultNotification(
  input: NotificationInput,
): Promise<ProfitShareResultNotification> {
  return decode(
    profitShareResultNotification.decode,
    await verifyNotification(input),
    "profit-share result notification",
  );
}

/**
 * Signs a notification body for merchants' own tests: the wire object (as the service sends it)
 * plus `sign`, returned as the exact text to post.
 */
export async function signNotification({
  body,
  secretKey,
}: {
  body: Record<string, unknown>;
  secretKey: string;
}): Promise<string> {
  const { sign: _ignored, ...fields } = body;
  return stringifyJson({ ...fields, sign: await sign(fields, secretKey) });
}
