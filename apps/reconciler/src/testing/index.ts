// Test support of the reconciler, for its own tests, the demo and the workspace's scripts:
// the merchant's ledger written from the sandbox's ground truth with chosen discrepancies.
// Exported as @merchantkit/reconciler/testing from source only; never part of the package.
export {
  INJECTABLE_CLASSES,
  type InjectableClass,
  type InjectedDiscrepancy,
  type WriteLedgerOptions,
  type WrittenLedger,
  writeLedger,
} from "./write-ledger";
