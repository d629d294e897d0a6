/**
 * Payout business codes and the typed error each becomes. Only 20000 is documented; the rest is
 * our assumed table (ASSUMPTIONS.md), grouped by HTTP-like hundreds so a wrong guess is easy to
 * spot and correct here, in one place, once the live service is checked.
 */
import { type CodeTable, classifier } from "../codes";

export const payoutCodes = {
  "20000": { meaning: "success", kind: undefined, source: "documented" },
  "40000": { meaning: "parameter error", kind: "invalid_request", source: "assumed" },
  "40100": { meaning: "sign verification failed", kind: "authentication", source: "assumed" },
  "40101": { meaning: "merchant not found", kind: "authentication", source: "assumed" },
  "40300": {
    meaning: "merchant has no payout permission or the caller domain is not whitelisted",
    kind: "permission",
    source: "assumed",
  },
  "40400": { meaning: "beneficiary not found", kind: "not_found", source: "assumed" },
  "40401": { meaning: "payer not found", kind: "not_found", source: "assumed" },
  "40402": { meaning: "payout not found", kind: "not_found", source: "assumed" },
  "40900": { meaning: "duplicate requestId", kind: "duplicate", source: "assumed" },
  "40901": { meaning: "beneficiary already exists", kind: "duplicate", source: "assumed" },
  "42200": {
    meaning: "beneficiary is not approved (payeeStatus is not PASS or UNNECESSARY)",
    kind: "invalid_request",
    source: "assumed",
  },
  "42201": {
    meaning: "payment method not available for the country, currency and entity type",
    kind: "invalid_request",
    source: "assumed",
  },
  "42202": { meaning: "insufficient balance", kind: "insufficient_balance", source: "assumed" },
  "42203": {
    meaning: "no voucher for this payout (it has not succeeded)",
    kind: "invalid_request",
    source: "assumed",
  },
  "50000": { meaning: "internal error", kind: "server", source: "assumed" },
} as const satisfies CodeTable;

export type PayoutCode = keyof typeof payoutCodes;

export const classifyPayoutCode = classifier(payoutCodes);
