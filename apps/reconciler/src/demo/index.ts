// The demo: sandbox, generated ledger, sync, match and report in one run.
export { type DemoCheck, type DemoOptions, type DemoResult, runDemo } from "./run-demo";
