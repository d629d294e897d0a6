/** Issuing business codes (provider-notes §4) and the typed error each becomes. */
import { type CodeTable, classifier } from "../codes";

export const issuingCodes = {
  "20000": { meaning: "success", kind: undefined, source: "documented" },
  "40000": { meaning: "parameter error", kind: "invalid_request", source: "documented" },
  "80000": { meaning: "internal service error", kind: "server", source: "documented" },
  "80001": { meaning: "cardholder not found", kind: "not_found", source: "documented" },
  "80002": { meaning: "cardholder e-mail already exists", kind: "duplicate", source: "documented" },
  "80003": {
    meaning: "incorrect cardholder merchant number",
    kind: "invalid_request",
    source: "documented",
  },
  "80004": { meaning: "merchant status invalid", kind: "permission", source: "documented" },
  "80005": {
    meaning: "merchant has no issuing business",
    kind: "permission",
    source: "documented",
  },
  "80006": { meaning: "merchant account not found", kind: "not_found", source: "documented" },
  "80007": {
    meaning: "merchant balance not enough",
    kind: "insufficient_balance",
    source: "documented",
  },
  "80008": { meaning: "amount above the maximum", kind: "invalid_request", source: "documented" },
  "80009": { meaning: "amount below the minimum", kind: "invalid_request", source: "documented" },
  "80010": { meaning: "duplicate data", kind: "duplicate", source: "documented" },
  "80011": {
    meaning: "cardholder card count limit",
    kind: "invalid_request",
    source: "documented",
  },
  "81000": { meaning: "unauthorized merchant", kind: "authentication", source: "documented" },
  "81001": { meaning: "business does not exist", kind: "not_found", source: "documented" },
} as const satisfies CodeTable;

export type IssuingCode = keyof typeof issuingCodes;

export const classifyIssuingCode = classifier(issuingCodes);
