/** Account business codes (provider-notes §3) and the typed error each becomes. */
import { type CodeTable, classifier } from "../codes";

export const accountCodes = {
  "20000": { meaning: "success", kind: undefined, source: "documented" },
  "40001": { meaning: "invalid parameter", kind: "invalid_request", source: "documented" },
  "40002": { meaning: "invalid time range", kind: "invalid_request", source: "documented" },
  "40003": { meaning: "access denied", kind: "permission", source: "documented" },
  "40004": { meaning: "resource not found", kind: "not_found", source: "documented" },
  "40005": { meaning: "request failed", kind: "api", source: "documented" },
  "40006": { meaning: "duplicate request", kind: "duplicate", source: "documented" },
  "40007": { meaning: "init global account failed", kind: "server", source: "documented" },
  "40008": {
    meaning: "invalid customer id for global account",
    kind: "invalid_request",
    source: "documented",
  },
  "40009": {
    meaning: "caller not authorized for the global account",
    kind: "permission",
    source: "documented",
  },
  // The answers to a bad apikey or a stale x-timestamp are not documented: our design.
  "40100": { meaning: "invalid apikey", kind: "authentication", source: "assumed" },
  "40101": {
    meaning: "x-timestamp missing or more than 10 minutes from server time",
    kind: "authentication",
    source: "assumed",
  },
} as const satisfies CodeTable;

export type AccountCode = keyof typeof accountCodes;

export const classifyAccountCode = classifier(accountCodes);
