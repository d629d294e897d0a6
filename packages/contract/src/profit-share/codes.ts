/**
 * Profit-share business codes. None but 20000 is documented: the rest is our design
 * (ASSUMPTIONS.md), numbered after the HTTP status each resembles, to correct once known.
 */
import { type CodeTable, classifier } from "../codes";

export const profitShareCodes = {
  "20000": { meaning: "accepted (not yet finished)", kind: undefined, source: "documented" },
  "40000": { meaning: "parameter error", kind: "invalid_request", source: "assumed" },
  "40100": { meaning: "sign verification failed", kind: "authentication", source: "assumed" },
  "40101": { meaning: "merchant not found", kind: "authentication", source: "assumed" },
  "40400": {
    meaning: "payment not found (gatewayReference)",
    kind: "not_found",
    source: "assumed",
  },
  "40401": {
    meaning: "original profit share not found (return)",
    kind: "not_found",
    source: "assumed",
  },
  "40900": { meaning: "duplicate profitReference", kind: "duplicate", source: "assumed" },
  "42201": {
    meaning: "payment not enabled for profit share (profitShare was not true)",
    kind: "invalid_request",
    source: "assumed",
  },
  "42202": {
    meaning: "profit share already completed for this payment (profitCompleted was true)",
    kind: "invalid_request",
    source: "assumed",
  },
  "42203": {
    meaning: "amount exceeds the amount available to share or return",
    kind: "insufficient_balance",
    source: "assumed",
  },
  "50000": { meaning: "internal error", kind: "server", source: "assumed" },
} as const satisfies CodeTable;

export type ProfitShareCode = keyof typeof profitShareCodes;

export const classifyProfitShareCode = classifier(profitShareCodes);
