/** The payout area of the contract: every endpoint, codec and table, and `payoutEndpoints`. */
import { acctAddPayer } from "./acct-add-payer";
import { acctQueryAcctCurrency } from "./acct-query-acct-currency";
import { acctQueryPayer } from "./acct-query-payer";
import { acctQueryPaymentFeild } from "./acct-query-payment-feild";
import { acctQueryPaymentMethods } from "./acct-query-payment-methods";
import { beneficiaryAdd } from "./beneficiary-add";
import { beneficiaryEdit } from "./beneficiary-edit";
import { beneficiaryQueryDetail } from "./beneficiary-query-detail";
import { beneficiaryQueryList } from "./beneficiary-query-list";
import { txnQuery } from "./txn-query";
import { txnQueryList } from "./txn-query-list";
import { txnQueryVoucher } from "./txn-query-voucher";
import { txnRemittance } from "./txn-remittance";

export * from "./acct-add-payer";
export * from "./acct-query-acct-currency";
export * from "./acct-query-payer";
export * from "./acct-query-payment-feild";
export * from "./acct-query-payment-methods";
export * from "./beneficiary-add";
export * from "./beneficiary-edit";
export * from "./beneficiary-query-detail";
export * from "./beneficiary-query-list";
export * from "./codes";
export * from "./enums";
/** Shared payout field codecs, as a namespace because their names (currency, size…) are generic. */
export * as payoutFields from "./fields";
/** The payout area's own combinators (see local-codecs.ts), candidates for ../codec. */
export * as payoutLocalCodecs from "./local-codecs";
export * from "./notification";
export * from "./records";
export * from "./txn-query";
export * from "./txn-query-list";
export * from "./txn-query-voucher";
export * from "./txn-remittance";

/** Every payout endpoint, in the order of the payout process. */
export const payoutEndpoints = [
  acctQueryPaymentMethods,
  acctQueryPaymentFeild,
  beneficiaryAdd,
  beneficiaryEdit,
  beneficiaryQueryDetail,
  beneficiaryQueryList,
  acctAddPayer,
  acctQueryPayer,
  acctQueryAcctCurrency,
  txnRemittance,
  txnQuery,
  txnQueryList,
  txnQueryVoucher,
] as const;
