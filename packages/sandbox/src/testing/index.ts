// Test support, exported as @merchantkit/sandbox/testing from source only (never published):
// what other packages' tests share with the sandbox's own, the request params that satisfy the
// sandbox's payout templates, and a remittance.
export {
  individualPayer,
  phWallet,
  remittance,
  usLocalPerson,
  usSwiftCompany,
} from "./payout-fixtures";
