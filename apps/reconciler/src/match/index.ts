// Matching: set-based SQL passes, breaks with stable ids, and a run verdict.

export { ChangeLogBusyError } from "../store/change-log";
export { BREAK_CLASSES, BREAK_PRIORITY, type BreakClass, type Verdict } from "./break-classes";
export { type MatchOptions, resolveMatchOptions } from "./match-options";
export { type MatchRunResult, type MatchStats, runMatch } from "./run-match";
export { syncProblems } from "./sync-health";
