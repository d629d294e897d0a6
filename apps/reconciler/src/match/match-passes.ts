// The matching passes, in the order they run: each is one set-based statement over the whole
// data set (nothing is decided row by row in JavaScript), in one transaction, on the temporary
// work tables of work-tables.ts. Each business rule is its own file in passes/; a pass only
// takes records no earlier pass took (openProvider / openLedger), so the order is the rules'
// precedence: matches first (exact, chains, net, gross, cash legs), then the breaks from the
// most specific (a key with the wrong amount) to the most general (missing on one side).
import type { ResolvedMatchOptions } from "./match-options";
import { authorizationChain, authorizationChainMismatch } from "./passes/authorization-chain";
import { cashLeg, cashLegMismatch } from "./passes/cash-leg";
import { confirmedProposals } from "./passes/decided-proposals";
import { duplicates } from "./passes/duplicates";
import { exactPass } from "./passes/exact";
import { keyMismatch } from "./passes/key-mismatch";
import { missingAtProvider } from "./passes/missing-at-provider";
import { missingInLedger } from "./passes/missing-in-ledger";
import { noMoney } from "./passes/no-money";
import { operationGross, operationGrossMismatch } from "./passes/operation-gross";
import { orphanRefunds, orphansAtProvider } from "./passes/orphan-refunds";
import { refundNet, refundNetMismatch } from "./passes/refund-net";
import { staleAuthorizations } from "./passes/stale-authorizations";
import { statusMismatch } from "./passes/status-mismatch";
import { tolerant } from "./passes/tolerant";
import { ledgerFees, providerFees } from "./passes/unmatched-fees";
import { analyzedAfter } from "./planner-settings";
import { runBreaks } from "./run-breaks";
import type { Statement } from "./statement";
import { workTables } from "./work-tables";

/**
 * Statements that compute the run's matches (run_records, run_members) and breaks (run_breaks),
 * run after planner-settings.ts's in the same transaction.
 */
export function matchPasses(o: ResolvedMatchOptions): Statement[] {
  return [
    ...exactPass(),
    ...workTables,
    authorizationChain,
    refundNet,
    operationGross,
    cashLeg,
    cashLegMismatch,
    // An entry written for a composite is measured against it before its bare record.
    refundNetMismatch,
    operationGrossMismatch,
    keyMismatch,
    authorizationChainMismatch,
    statusMismatch(o),
    duplicates,
    noMoney,
    // Finance's confirmed proposals, then the proposals of what is left (decided-proposals.ts).
    confirmedProposals,
    ...tolerant(o),
    missingAtProvider(o),
    ledgerFees,
    orphanRefunds,
    missingInLedger(o),
    providerFees,
    orphansAtProvider,
    staleAuthorizations(o),
    runBreaks,
  ].map(analyzedAfter);
}
