// The demo: sandbox, generated ledger, sync, match and report in one run (`reconciler demo`).
export { demoCommand } from "./demo-command";
export { type DemoCheck, type DemoOptions, type DemoResult, runDemo } from "./run-demo";
