// Durations in config ("1d", "6h", "15m", "30s", "500ms") and how they are printed back.

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

const DURATION = /^(\d+)(ms|s|m|h|d)$/;

/** Milliseconds of "<whole number><ms|s|m|h|d>", or undefined when the text is not one. */
export function parseDuration(text: string): number | undefined {
  const m = DURATION.exec(text.trim());
  if (!m) return undefined;
  const ms = Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
  return Number.isSafeInteger(ms) ? ms : undefined;
}

/** The largest unit that divides the duration exactly: 86400000 → "1d", 5400000 → "90m". */
export function formatDuration(ms: number): string {
  for (const unit of ["d", "h", "m", "s"] as const)
    if (ms > 0 && ms % UNIT_MS[unit] === 0) return `${ms / UNIT_MS[unit]}${unit}`;
  return `${ms}ms`;
}
