// A match run's outcome in a few lines for a terminal (or one JSON line for logs).

import { formatSeconds } from "../format-seconds";
import type { MatchRunResult } from "./run-match";

export function matchResultLines(result: MatchRunResult, isTty: boolean): string[] {
  if (!isTty)
    return [
      JSON.stringify({
        msg: "match finished",
        runId: result.runId,
        asOf: result.asOf.toISOString(),
        verdict: result.verdict,
        reasons: result.reasons,
        persisted: result.persisted,
        durationMs: result.durationMs,
        ...result.stats,
      }),
    ];
  const s = result.stats;
  const m = s.matched;
  const lines = [
    `match ${result.verdict} in ${formatSeconds(result.durationMs / 1000)} (as of ${result.asOf.toISOString()})`,
    `  ${s.providerItems} provider items, ${s.ledgerEntries} ledger entries; matched exact ${m.exact ?? 0}, chain ${m.chain ?? 0}, gross ${m.operation_gross ?? 0}, cash legs ${m.cash_leg ?? 0}, proposed ${m.tolerant ?? 0}`,
    `  open breaks ${s.openBreaks} (new ${s.newBreaks}, resolved ${s.resolvedBreaks}), pending ${s.pendingItems}`,
  ];
  for (const [cls, n] of Object.entries(s.breaksByClass)) lines.push(`    ${cls}: ${n}`);
  for (const reason of result.reasons) lines.push(`  ! ${reason}`);
  if (!result.persisted)
    lines.push(
      result.stored
        ? `  (incomplete, rolled back: matches and breaks left as the last complete run wrote them, open breaks ${result.stored.openBreaks}, pending ${result.stored.pendingItems})`
        : "  (incomplete, rolled back: no complete run has written matches and breaks yet)",
    );
  return lines;
}
