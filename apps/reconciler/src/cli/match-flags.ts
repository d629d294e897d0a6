// The command-line flags of `run` (and `demo`) that tune matching, checked with valibot.
import * as v from "valibot";
import { parseDuration } from "../config/durations";
import type { MatchOptions } from "../match/match-options";
import { SWITCH } from "./parse-args";

const duration = v.pipe(
  v.string("needs a value"),
  v.transform((s) => parseDuration(s) ?? Number.NaN),
  v.number(),
  v.check((ms) => !Number.isNaN(ms), 'must be a duration such as "7d", "36h" or "30m"'),
);

/** Flag schema entries: pass them to commandFlags() next to the command's own. */
export const MATCH_FLAGS = {
  "as-of": v.optional(
    v.pipe(
      v.string("needs a value"),
      v.regex(/^\d{4}-\d{2}-\d{2}/, "must be an ISO 8601 date-time"),
      v.transform((s) => new Date(s)),
      v.check((d) => !Number.isNaN(d.getTime()), "must be a real time"),
    ),
  ),
  tolerance: v.optional(
    v.pipe(
      v.string("needs a value"),
      v.regex(/^\d{1,20}(\.\d{1,12})?$/, 'must be a decimal such as "1.00"'),
    ),
  ),
  "tolerance-window": v.optional(duration),
  "stale-after": v.optional(duration),
  "ledger-grace": v.optional(duration),
  "provider-grace": v.optional(duration),
  "pending-grace": v.optional(duration),
  "max-sync-lag": v.optional(duration),
  full: SWITCH,
};

type MatchFlagValues = { [K in keyof typeof MATCH_FLAGS]?: v.InferOutput<(typeof MATCH_FLAGS)[K]> };

export function matchOptionsOf(flags: MatchFlagValues): MatchOptions {
  return {
    asOf: flags["as-of"],
    tolerance: flags.tolerance,
    toleranceWindowMs: flags["tolerance-window"],
    staleAuthorizationMs: flags["stale-after"],
    ledgerGraceMs: flags["ledger-grace"],
    providerGraceMs: flags["provider-grace"],
    pendingStatusGraceMs: flags["pending-grace"],
    maxSyncLagMs: flags["max-sync-lag"],
    full: flags.full,
  };
}

/** The flags but `--as-of`: what `schedule` takes (each tick matches as of its own time). */
export const MATCH_TUNING_USAGE =
  "[--tolerance 1.00] [--tolerance-window 3d] [--stale-after 7d] [--ledger-grace 1d] [--provider-grace 2d] [--pending-grace 2d] [--max-sync-lag 2h] [--full]";

export const MATCH_USAGE = `[--as-of ISO] ${MATCH_TUNING_USAGE}`;
