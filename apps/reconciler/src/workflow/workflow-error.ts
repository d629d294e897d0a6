// The one error type of finance's actions on breaks: what was wrong, named for the caller.

/**
 * unknown_break: no break has that id; invalid: a field breaks a rule (actor, reason, name,
 * action); conflict: the break's state does not allow the action (accepted meanwhile by
 * someone else, not accepted, resolved); forbidden: this person may not do it (maker-checker:
 * the approver who asked cannot approve their own request). Nothing was written in every case.
 */
type WorkflowErrorCode = "unknown_break" | "invalid" | "conflict" | "forbidden";

export class WorkflowError extends Error {
  override readonly name = "WorkflowError";
  constructor(
    readonly code: WorkflowErrorCode,
    message: string,
    /** The field the rule is about (actor, reason, assignee, breakId, action), if one. */
    readonly field?: string,
    /** The rule broken, where callers tell it apart (NOTHING_TO_WRITE_OFF). */
    readonly rule?: string,
  ) {
    super(message);
  }
}
