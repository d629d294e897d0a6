// Error text safe to store in sync_runs / sync_windows: no credentials, keys or card numbers.
import { isSensitiveKey, REDACTED } from "@merchantkit/core";
import { replaceCardLikeRuns } from "@merchantkit/core/internal";

const MAX_LENGTH = 2_000;
// key=value, key: value and "key":"value" pairs, where the key names a secret.
const PAIR = /("?)([A-Za-z][\w-]*)\1(\s*[:=]\s*)("[^"]*"|[^\s,;&}]+)/g;
// user:password@ in connection URLs.
const URL_PASSWORD = /(\/\/[^/:@\s]+:)[^@\s]+@/g;
// Card numbers: the digit runs of core's one rule (dashes, underscores, runs of spaces, dots or
// slashes in a card grouping; also glued to letters, "PAN4111111111111111", as JSON.parse quotes a
// bad body), those of 13 digits or more masked whole. 64-bit ids are 19 digits too and are masked
// with them: a stored error is read by people, and a leaked PAN costs more than a lost id.
const maskPan = (run: string) => (run.replace(/\D/g, "").length >= 13 ? REDACTED : run);

/**
 * An error wrapping another (drizzle's "Failed query: <sql>\nparams: <values>" around the
 * driver's error) is its first line and then its cause, which says what happened: the values
 * are left out and the driver's reason (e.g. `write CONNECTION_CLOSED 127.0.0.1:5432`) shown.
 */
function describeError(error: Error): string {
  const own = `${error.name}: ${error.message}`;
  if (!(error.cause instanceof Error)) return own;
  const first = own.split("\n", 1)[0] ?? own;
  const head = first.length > 200 ? `${first.slice(0, 200)}…` : first;
  return `${head} — ${describeError(error.cause)}`;
}

/**
 * The message of an error (or any value) with secrets masked and capped at 2,000 characters.
 * SDK errors are redacted already; this also covers driver and network errors.
 */
export function errorText(error: unknown): string {
  const text =
    error instanceof Error
      ? describeError(error)
      : typeof error === "string"
        ? error
        : String(error);
  const masked = text
    .replace(URL_PASSWORD, `$1${REDACTED}@`)
    .replace(PAIR, (all, quote: string, key: string, sep: string) =>
      isSensitiveKey(key) ? `${quote}${key}${quote}${sep}${REDACTED}` : all,
    );
  const safe = replaceCardLikeRuns(masked, maskPan);
  return safe.length > MAX_LENGTH ? `${safe.slice(0, MAX_LENGTH)}…` : safe;
}
