// RECONCILER_SIGN_IN_RETENTION_DAYS: how long the console keeps a sign-in attempt
// (console_sign_ins) past the throttle's window, for whoever reviews who tried to sign in: whole
// days, 1 to 3,650, 90 when unset. Older attempts are deleted at each sign-in
// (console/console-auth.ts recordSignIn).
import { ConfigError } from "./load-config";

export const SIGN_IN_RETENTION_SETTING = "RECONCILER_SIGN_IN_RETENTION_DAYS";
export const DEFAULT_SIGN_IN_RETENTION_DAYS = 90;

/** The setting's days; the default when unset or empty. */
export function signInRetentionDays(value: string | undefined): number {
  const text = (value ?? "").trim();
  if (text === "") return DEFAULT_SIGN_IN_RETENTION_DAYS;
  const days = /^\d{1,4}$/.test(text) ? Number(text) : Number.NaN;
  if (!(days >= 1 && days <= 3650))
    throw new ConfigError([
      `${SIGN_IN_RETENTION_SETTING}: must be whole days from 1 to 3650 (how long sign-in attempts are kept past the throttle's 15 minutes), not "${text.slice(0, 40)}"`,
    ]);
  return days;
}
