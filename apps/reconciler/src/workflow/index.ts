// Finance's work on breaks: actions with an audit trail, lapsing acceptances, the queue.

export {
  applyBreakAction,
  BREAK_ACTIONS,
  type BreakAction,
  type BreakActionInput,
  type BreakActionResult,
} from "./break-actions";
export {
  type AuditRow,
  type BreakDetail,
  type BreakFilter,
  type BreakRow,
  breakHistory,
  listBreaks,
  QUEUE_SORTS,
  showBreak,
  WORKFLOW_STATUSES,
} from "./break-queries";
export {
  type DecideProposalInput,
  type DecideProposalResult,
  decideProposal,
  PROPOSAL_DECISIONS,
  type ProposalDecision,
} from "./decide-proposal";
export { lapseChangedAcceptances, RECONCILER_ACTOR } from "./lapse-acceptances";
export { WorkflowError, type WorkflowErrorCode } from "./workflow-error";
export {
  type JournalEntry,
  type WriteOffInput,
  type WriteOffResult,
  writeOffBreak,
} from "./write-off";
