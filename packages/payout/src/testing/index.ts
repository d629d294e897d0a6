// Test support, exported as @merchantkit/payout/testing from source only (never published):
// the fixtures the workspace's own suites share with this package's tests.
export * from "./fixtures";
