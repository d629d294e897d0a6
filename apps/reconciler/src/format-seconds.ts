/**
 * A duration for people, to a tenth of a second ("12.3 s"). Written without toFixed so the repo
 * keeps one simple rule — no toFixed/parseFloat anywhere in sources — that guards money.
 */
export function formatSeconds(seconds: number): string {
  const tenths = Math.round(seconds * 10);
  return `${Math.trunc(tenths / 10)}.${Math.abs(tenths % 10)} s`;
}
