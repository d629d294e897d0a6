/**
 * @merchantkit/core/internal: what the sibling area packages share with core but a merchant
 * never calls (webhooks' Web Crypto comparison and hex; the card-number rules the reconciler
 * masks stored pushes by). Not part of the API merchants code
 * against: it may change in any release of core.
 */

export { looksLikeCardNumber, replaceCardLikeRuns } from "./redaction/redact";
export { constantTimeEqual, toHex } from "./signing/constant-time-equal";
