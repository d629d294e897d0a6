// Test support, exported as @merchantkit/sandbox/testing from source only (never published):
// what other packages' tests share with the sandbox's own, the request params that satisfy the
// sandbox's payout templates.
export { individualPayer, phWallet, usLocalPerson, usSwiftCompany } from "./payout-fixtures";
