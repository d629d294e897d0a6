// The matching passes, in the order they run: each is one set-based statement over the whole
// data set (nothing is decided row by row in JavaScript), in one transaction, on the temporary
// work tables of work-tables.ts. Each business rule is its own file in passes/; a pass only
// takes records no earlier pass took (openProvider / openLedger), so the order is the rules'
// precedence: matches first (exact, chains, net, gross, cash legs), then the breaks from the
// most specific (a key with the wrong amount) to the most general (missing on one side).
// A pass that is the first to report a break class carries its descriptor (break-class.ts):
// the list of classes, their priorities and their clocks are read from here (break-classes.ts).
import type { BreakClassDescriptor } from "./break-class";
import type { ResolvedMatchOptions } from "./match-options";
import { type MatchPass, statementsOnly } from "./match-pass";
import { authorizationChain, authorizationChainMismatch } from "./passes/authorization-chain";
import { cashLeg, cashLegMismatchPass } from "./passes/cash-leg";
import { confirmedProposals } from "./passes/decided-proposals";
import { duplicatesPass } from "./passes/duplicates";
import { exactPass } from "./passes/exact";
import { keyMismatchPass } from "./passes/key-mismatch";
import { manualMatchesPass } from "./passes/manual-matches";
import { missingAtProviderPass } from "./passes/missing-at-provider";
import { missingInLedgerPass } from "./passes/missing-in-ledger";
import { noMoney } from "./passes/no-money";
import { operationGross, operationGrossMismatch } from "./passes/operation-gross";
import { orphanRefundsPass, orphansAtProvider } from "./passes/orphan-refunds";
import { refundNet, refundNetMismatch } from "./passes/refund-net";
import { staleAuthorizationsPass } from "./passes/stale-authorizations";
import { statusMismatchPass } from "./passes/status-mismatch";
import { tolerantPass } from "./passes/tolerant";
import { ledgerFeesPass, providerFees } from "./passes/unmatched-fees";
import { analyzedAfter } from "./planner-settings";
import { runBreaks } from "./run-breaks";
import type { Statement } from "./statement";
import { workTables } from "./work-tables";

/** Every pass, in precedence order. */
export const MATCH_PASSES = [
  statementsOnly(exactPass, workTables, authorizationChain, refundNet, operationGross, cashLeg),
  // Finance's manual matches: records no rule above paired, before any break takes them.
  statementsOnly(manualMatchesPass),
  cashLegMismatchPass,
  // An entry written for a composite is measured against it before its bare record.
  statementsOnly(refundNetMismatch, operationGrossMismatch),
  keyMismatchPass,
  statementsOnly(authorizationChainMismatch),
  statusMismatchPass,
  duplicatesPass,
  statementsOnly(noMoney),
  // Finance's confirmed proposals, then the proposals of what is left (decided-proposals.ts).
  statementsOnly(confirmedProposals),
  tolerantPass,
  missingAtProviderPass,
  ledgerFeesPass,
  orphanRefundsPass,
  missingInLedgerPass,
  statementsOnly(providerFees, orphansAtProvider),
  staleAuthorizationsPass,
] as const satisfies readonly MatchPass[];

/**
 * Statements that compute the run's matches (run_records, run_members) and breaks (run_breaks),
 * run after planner-settings.ts's in the same transaction.
 */
export function matchPasses(o: ResolvedMatchOptions): Statement[] {
  const classes = MATCH_PASSES.flatMap((pass): readonly BreakClassDescriptor[] => pass.classes);
  return [...MATCH_PASSES.flatMap((pass) => pass.statements(o)), runBreaks(classes)].map(
    analyzedAfter,
  );
}
