/** The push transport around the events: signature headers, acknowledgement body, retry rule. */
import * as c from "../codec";

/** Headers of a push: x-signature = hex HMAC-SHA256 over `${x-timestamp}.${raw body}`. */
export const ISSUING_WEBHOOK_HEADERS = {
  /** Unix seconds. */
  timestamp: "x-timestamp",
  signature: "x-signature",
} as const;

/** A push not acknowledged with respCode 20000 is sent again every 15 s, up to 10 times. */
export const ISSUING_WEBHOOK_RETRY = { intervalSeconds: 15, maxAttempts: 10 } as const;

/** The merchant's answer to a push; respCode "20000" confirms receipt. */
export const webhookAck = c.object({
  respCode: c.string({ nonEmpty: true }),
  respMsg: c.string(),
});
