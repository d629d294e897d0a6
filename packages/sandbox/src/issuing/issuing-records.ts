/**
 * The issuing area's records as it holds them. Card transactions are kept lean (a million of
 * them must fit in memory): ids and codes that can be derived (txnOrderNo, authorizationCode,
 * card and merchant fields) are derived on output from a sequence number and shared objects.
 */
import type { ProductTerms } from "./products";
import type { Sequenced } from "./sorted-log";

export type CardStatus = "ACTIVE" | "FROZEN" | "TERMINATED";
export type Status = "P" | "S" | "F";

export interface Cardholder {
  cardholderId: string;
  merchantNo: string;
  firstName: string;
  lastName: string;
  email: string;
  mobile?: string | undefined;
  mobileAreaCode?: string | undefined;
  birthDay?: string | undefined;
  nationality?: string | undefined;
  addressRegionCode?: string | undefined;
  addressStateCode?: string | undefined;
  addressCityCode?: string | undefined;
  addressDetailLine1?: string | undefined;
  addressDetailLine2?: string | undefined;
  addressPostalCode?: string | undefined;
  remark?: string | undefined;
}

export interface Card {
  cardId: string;
  cardholderId: string;
  merchantNo: string;
  terms: ProductTerms;
  currency: string;
  status: CardStatus;
  /** Available balance in minor units of the card currency (holds already taken off). */
  available: bigint;
  createdAt: number;
}

export interface OperateFee {
  feeType: string;
  feeAmount: string;
  feeCurrency: string;
}

export type OperateType = "CREATE" | "DEPOSIT" | "FREEZE" | "UNFREEZE" | "TERMINATE" | "RETURN";

export interface OperateRecord extends Sequenced {
  operateRecordId: string;
  card: Card;
  clientRequestId: string;
  type: OperateType;
  status: Status;
  remark: string | undefined;
  amount: string | undefined;
  currency: string;
  operateTime: number;
  feeList: OperateFee[];
  /** When it reached S or F (not a wire field). */
  finishTime: number | undefined;
}

/** Where a card was used: shared by every transaction at that merchant. */
export interface MerchantInfo {
  merchantId: string;
  merchantName: string;
  merchantCountry: string;
  merchantCountryCode: string;
  merchantStateProvince: string;
  merchantCity: string;
  merchantPostalCode: string;
  merchantMccCode: string;
}

export type TxnType = "AUTHORIZATION" | "CLEARING" | "REVERSAL" | "REFUND" | "VERIFICATION";

/** A card transaction. A class so a million instances share one hidden class. */
export class CardTxn implements Sequenced {
  /** -1 until the record reaches S. */
  settleTime = -1;
  transactionFee: string | undefined = undefined;
  crossBorderFee: string | undefined = undefined;
  exchangeFee: string | undefined = undefined;

  constructor(
    public seq: number,
    readonly txnType: TxnType,
    public txnStatus: Status,
    /** The authorization a clearing, reversal or refund belongs to. */
    readonly auth: CardTxn | undefined,
    /** The clearing a refund gives money back for. */
    readonly refundOf: CardTxn | undefined,
    readonly card: Card,
    readonly authTime: number,
    readonly transactionTime: number,
    public authMessageDesc: string | undefined,
    readonly transactionAmount: string,
    readonly transactionCurrency: string,
    readonly cardAmount: string,
    readonly merchant: MerchantInfo,
  ) {}

  get txnOrderNo(): string {
    return txnOrderNoOf(this.seq);
  }
}

const TXN_PREFIX = "T";
const TXN_DIGITS = 15;

/** Fixed width, so text order is sequence order (ties on time are ordered by id). */
export function txnOrderNoOf(seq: number): string {
  return TXN_PREFIX + String(seq).padStart(TXN_DIGITS, "0");
}

/** The sequence number inside a txnOrderNo, or -1 when it is not one of ours. */
export function seqOfTxnOrderNo(txnOrderNo: string): number {
  if (txnOrderNo.length !== TXN_PREFIX.length + TXN_DIGITS || !txnOrderNo.startsWith(TXN_PREFIX)) {
    return -1;
  }
  const digits = txnOrderNo.slice(TXN_PREFIX.length);
  return /^\d+$/.test(digits) ? Number(digits) : -1;
}

/** A six-character approval code, stable for an authorization's sequence number. */
export function authorizationCodeOf(seq: number): string {
  const n = (Math.imul(seq + 1, 2_654_435_761) >>> 0) % 2_176_782_336;
  return n.toString(36).toUpperCase().padStart(6, "0");
}

export interface ThreeDsRecord extends Sequenced {
  txnOrderNo: string;
  merchantNo: string;
  card: Card;
  type: string;
  sendMethod: string;
  sendTarget: string;
  sendStatus: string;
  sendTime: number;
  card3dsValues: string;
  currency: string;
  amount: string;
  merchantName: string;
}
