/**
 * The issuing client's public types under readable names, each derived from the contract so a
 * field, a limit or an enum is written once (in @merchantkit/contract) and never re-declared.
 * Ids are digit strings, amounts decimal strings, time filters a Date or epoch seconds, and
 * times in records epoch milliseconds (`new Date(record.transactionTime)`).
 */
import type {
  AppOf,
  cardCreateCard,
  cardDeposit,
  cardGetOperateRecordList,
  cardholderCreateCardholder,
  cardholderUpdateCardholder,
  cardOperate,
  cardQuery3dsNotify,
  cardReturnCardBalance,
  cardTxnStatus,
  cardTxnType,
  operateRecordType,
  operateStatus,
  queryTxnList,
} from "@merchantkit/contract";
import type { EndpointParams, EndpointResult } from "@merchantkit/core";

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** Paging of the list methods: both optional, `pageNum` defaults to 1 and `pageSize` to 100. */
type Paged<P> = Simplify<Omit<P, "pageNum" | "pageSize"> & { pageNum?: number; pageSize?: number }>;

type RecordOf<E> = E extends { records: (infer R)[] } ? R : never;

type CreateWire = EndpointParams<typeof cardholderCreateCardholder>;

/**
 * A new cardholder: firstName, lastName and email required. The country of the address is
 * `addressCountryCode` here as in updates (the create request's wire name, addressRegionCode,
 * is filled from it).
 */
export type CardholderCreateParams = Simplify<
  Omit<CreateWire, "addressRegionCode"> & { addressCountryCode?: CreateWire["addressRegionCode"] }
>;
/** Only the fields given change. */
export type CardholderUpdateParams = EndpointParams<typeof cardholderUpdateCardholder>;
/** A cardholder as the service answers; `addressCountryCode` is set whenever the country is. */
export type Cardholder = EndpointResult<typeof cardholderCreateCardholder>;

export type CardCreateParams = EndpointParams<typeof cardCreateCard>;
export type CardCreated = EndpointResult<typeof cardCreateCard>;
export type CardDepositParams = EndpointParams<typeof cardDeposit>;
export type CardReturnBalanceParams = EndpointParams<typeof cardReturnCardBalance>;
/** freeze / unfreeze / terminate: the card, and optionally your clientRequestId. */
export type CardOperateParams = Simplify<Omit<EndpointParams<typeof cardOperate>, "type">>;
/** The operation was accepted (status P); its outcome is an operate record reaching S or F. */
export type CardOperationAccepted = EndpointResult<typeof cardDeposit>;

export type OperateRecordListParams = Paged<EndpointParams<typeof cardGetOperateRecordList>>;
export type CardOperateRecord = RecordOf<EndpointResult<typeof cardGetOperateRecordList>>;
export type OperateRecordType = AppOf<typeof operateRecordType>;
export type OperateStatus = AppOf<typeof operateStatus>;

export type CardTransactionListParams = Paged<EndpointParams<typeof queryTxnList>>;
export type CardTransaction = RecordOf<EndpointResult<typeof queryTxnList>>;
export type CardTransactionType = AppOf<typeof cardTxnType>;
export type CardTransactionStatus = AppOf<typeof cardTxnStatus>;

export type ThreeDsListParams = Paged<EndpointParams<typeof cardQuery3dsNotify>>;
/** One 3DS value delivery; `card3dsValues` is the code itself: keep it out of your logs too. */
export type ThreeDsDelivery = RecordOf<EndpointResult<typeof cardQuery3dsNotify>>;
