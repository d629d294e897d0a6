/**
 * The payout client's public types under readable names, each derived from the contract so a
 * field, a limit or an enum is written once (in @merchantkit/contract) and never re-declared.
 */
import type {
  AppOf,
  accountInfomation,
  acctAddPayer,
  acctQueryAcctCurrency,
  acctQueryPayer,
  acctQueryPaymentFeild,
  acctQueryPaymentMethods,
  beneficiaryAdd,
  beneficiaryAddress,
  beneficiaryEdit,
  beneficiaryQueryDetail,
  beneficiaryQueryList,
  chargeFlag,
  feeBearing,
  fieldRequirement,
  payeeStatus,
  payerDetail,
  payerIdType,
  payoutEntityType,
  payoutPaymentMethod,
  payoutStatus,
  receiverInfo,
  subEntityType,
  txnQuery,
  txnQueryList,
  txnQueryVoucher,
  txnRemittance,
} from "@merchantkit/contract";
import type { EndpointParams, EndpointResult } from "@merchantkit/core";

/** Paging of the list methods: both optional, `current` defaults to 1 and `size` to 100. */
type Paged<P> = Omit<P, "size" | "current"> & { size?: number; current?: number };

// Enumerations: the documented values as literals; open ones also take any string.
/** Beneficiary entity type: "0" company, "1" individual. */
export type EntityType = AppOf<typeof payoutEntityType>;
/** Payer entity type: "0" business, "1" individual. */
export type SubEntityType = AppOf<typeof subEntityType>;
/** Payer identity document: "0" NRIC, "1" passport, "2" corporate registration number (open). */
export type PayerIdType = AppOf<typeof payerIdType>;
/** "Y": the payer bears the fees (targetAmount arrives in full); "N": fees come out of sourceAmount. */
export type ChargeFlag = AppOf<typeof chargeFlag>;
/** Who bears SWIFT charges: "OUR" (the payer) or "SHA" (shared). */
export type FeeBearing = AppOf<typeof feeBearing>;
/** LOCAL, SWIFT, E_WALLET, CASH_PICKUP... (open). */
export type PaymentMethod = AppOf<typeof payoutPaymentMethod>;
/** Beneficiary review status; a payout needs PASS or UNNECESSARY (open). */
export type PayeeStatus = AppOf<typeof payeeStatus>;
/** "P" processing, "S" success, "F" failure (open). */
export type PayoutStatus = AppOf<typeof payoutStatus>;
/** A template value: "Y" required, "C" conditional, "N" optional. */
export type FieldRequirement = AppOf<typeof fieldRequirement>;

// The JSON-encoded parts: typed objects here, JSON text on the wire.
export type ReceiverInfo = AppOf<typeof receiverInfo>;
export type BeneficiaryAddress = AppOf<typeof beneficiaryAddress>;
export type AccountInfomation = AppOf<typeof accountInfomation>;
export type PayerDetail = AppOf<typeof payerDetail>;

// acct/queryPaymentFeild
export type PaymentFieldsRetrieveParams = EndpointParams<typeof acctQueryPaymentFeild>;
/** The Y/C/N template of each beneficiary part for one route. */
export type PaymentFieldTemplate = EndpointResult<typeof acctQueryPaymentFeild>;

// acct/queryPaymentMethods
export type PaymentMethodsListParams = EndpointParams<typeof acctQueryPaymentMethods>;
export type PaymentMethodsList = EndpointResult<typeof acctQueryPaymentMethods>;

// beneficiary/*
export type BeneficiaryCreateParams = EndpointParams<typeof beneficiaryAdd>;
export type BeneficiaryUpdateParams = EndpointParams<typeof beneficiaryEdit>;
/** What add and edit answer: the id and the (new) review status. */
export type BeneficiaryStatus = EndpointResult<typeof beneficiaryAdd>;
export type BeneficiaryRetrieveParams = EndpointParams<typeof beneficiaryQueryDetail>;
export type Beneficiary = EndpointResult<typeof beneficiaryQueryDetail>;
export type BeneficiaryListParams = Paged<EndpointParams<typeof beneficiaryQueryList>>;

// txn/*
/**
 * txn/remittance params plus `beneficiaryPaymentMethod`, which is NOT sent: the beneficiary's
 * method, when the caller knows it, lets the SWIFT → feeBearing rule be checked without a
 * lookup (see TransfersResource.create).
 */
export type TransferCreateParams = EndpointParams<typeof txnRemittance> & {
  beneficiaryPaymentMethod?: PaymentMethod | undefined;
};
export type Transfer = EndpointResult<typeof txnRemittance>;
export type TransferRetrieveParams = EndpointParams<typeof txnQuery>;
export type TransferVoucherParams = EndpointParams<typeof txnQueryVoucher>;
export type TransferVoucher = EndpointResult<typeof txnQueryVoucher>;
export type TransferListParams = Paged<EndpointParams<typeof txnQueryList>>;

// acct/addPayer, acct/queryPayer
export type PayerCreateParams = EndpointParams<typeof acctAddPayer>;
/** The new payer's id (a string; may be a 64-bit number on the wire). */
export type PayerId = EndpointResult<typeof acctAddPayer>;
/** `size: -1` asks for every payer on one page. */
export type PayerListParams = Paged<EndpointParams<typeof acctQueryPayer>>;
export type Payer = EndpointResult<typeof acctQueryPayer>["records"][number];

// acct/queryAcctCurrency
export type BalanceListParams = EndpointParams<typeof acctQueryAcctCurrency>;
export type Balance = EndpointResult<typeof acctQueryAcctCurrency>[number];
