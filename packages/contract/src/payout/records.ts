/**
 * Payout resources: the JSON-encoded beneficiary parts, the beneficiary, the payer and the
 * transfer record, and the payout paged result. Request shapes are strict about format; the
 * records read back are lenient (plain strings), so a format the service widens never breaks a read.
 */

import * as c from "../codec";
import type { AnyCodec } from "../codec/codec";
import {
  beneficiaryAccountType,
  chargeFlag,
  feeBearing,
  payeeStatus,
  payerIdType,
  payoutEntityType,
  payoutPaymentMethod,
  payoutStatus,
  subEntityType,
} from "./enums";
import {
  beneficiaryId,
  country,
  currency,
  date,
  merchantNo,
  payerId,
  payoutId,
  responseAmount,
  responseTime,
  text,
} from "./fields";
import { present } from "./local-codecs";

const opt = () => c.optional(c.string());

/**
 * Identity part of a beneficiary (sent as JSON text). Every key is optional here: which ones a
 * beneficiary needs comes from the queryPaymentFeild template for its country, currency,
 * method and entity type, and a template may name keys beyond these, so the parts are open.
 */
export const receiverInfo = c.object(
  {
    companyName: opt(),
    firstName: opt(),
    lastName: opt(),
    areaCode: opt(),
    phone: opt(),
    email: opt(),
    identityType: opt(),
    identityNumber: opt(),
    birthDate: opt(),
    vatNumber: opt(),
  },
  { open: true },
);

/** Address part of a beneficiary (sent as JSON text); keys per the template. */
export const beneficiaryAddress = c.object(
  {
    countryCode: opt(),
    state: opt(),
    city: opt(),
    addressLine1: opt(),
    addressLine2: opt(),
    addressLine3: opt(),
    postalCode: opt(),
    townName: opt(),
  },
  { open: true },
);

/** Account part of a beneficiary (sent as JSON text; the wire name is spelled so); keys per the template. */
export const accountInfomation = c.object(
  {
    cardNumber: opt(),
    accountType: c.optional(beneficiaryAccountType),
    walletType: opt(),
    walletPhone: opt(),
    swiftCode: opt(),
    sortCode: opt(),
    branchCode: opt(),
    bankHolderName: opt(),
    bankName: opt(),
    pickUpBankName: opt(),
    pickUpBankBranchName: opt(),
    pickUpBankBranchId: opt(),
    pickUpBankBranchAddress: opt(),
  },
  { open: true },
);

export const receiverInfoText = c.jsonText(receiverInfo, "receiverInfo object");
export const beneficiaryAddressText = c.jsonText(beneficiaryAddress, "address object");
export const accountInfomationText = c.jsonText(accountInfomation, "accountInfomation object");

/** What beneficiary/add sends (and beneficiary/edit, with beneficiaryId). */
export const beneficiaryFields = c.object({
  merchantNo,
  merchantRefId: text,
  bankCountry: country,
  payoutCurrency: currency,
  entityType: payoutEntityType,
  paymentMethod: payoutPaymentMethod,
  receiverInfo: receiverInfoText,
  address: beneficiaryAddressText,
  accountInfomation: accountInfomationText,
});

/** A beneficiary as beneficiary/queryDetail and queryList return it (partly our design). */
export const beneficiaryRecord = c.object({
  beneficiaryId,
  payeeStatus,
  merchantNo: opt(),
  merchantRefId: opt(),
  bankCountry: c.string(),
  payoutCurrency: c.string(),
  entityType: payoutEntityType,
  paymentMethod: payoutPaymentMethod,
  receiverInfo: c.optional(receiverInfoText),
  address: c.optional(beneficiaryAddressText),
  accountInfomation: c.optional(accountInfomationText),
  /** Why the review rejected it (payeeStatus REJECT); our design. */
  rejectReason: opt(),
  createTime: c.optional(responseTime),
  updateTime: c.optional(responseTime),
});

/** beneficiary/add and beneficiary/edit answer with the id and the (new) review status. */
export const beneficiaryResult = c.object({ beneficiaryId, payeeStatus });

const optText = () => c.optional(text);

/** The payer's own fields (acct/addPayer without merchantNo; remittance payerDetail). */
export const payerFields = c.object({
  subEntityType,
  country,
  companyNameEn: optText(),
  companyName: optText(),
  firstName: optText(),
  lastName: optText(),
  birthDate: c.optional(date),
  addressEn1: optText(),
  addressEn2: optText(),
  addressEn3: optText(),
  postcode: optText(),
  email: optText(),
  areaCode: optText(),
  phoneNumber: optText(),
  state: optText(),
  city: optText(),
  idType: c.optional(payerIdType),
  idNumber: optText(),
  idValidDateFrom: c.optional(date),
  idValidDateTo: c.optional(date),
  registerNo: optText(),
  registerDate: c.optional(date),
});

/** Names a payer must have by entity type (our reading of "subEntityType decides the identity fields"). */
export const payerRules = [
  {
    field: "companyNameEn",
    message: "or companyName is required for a business payer (subEntityType 0)",
    test: (p: Record<string, unknown>) =>
      p.subEntityType !== "0" || present(p.companyNameEn) || present(p.companyName),
  },
  {
    field: "firstName",
    message: "is required for an individual payer (subEntityType 1)",
    test: (p: Record<string, unknown>) => p.subEntityType !== "1" || present(p.firstName),
  },
  {
    field: "lastName",
    message: "is required for an individual payer (subEntityType 1)",
    test: (p: Record<string, unknown>) => p.subEntityType !== "1" || present(p.lastName),
  },
] as const;

/** A payer without merchantNo, with the entity-type rules (remittance payerDetail). */
export const payerDetail = c.withRules(payerFields, payerRules);

/** A payer as acct/queryPayer returns it: four fields shown by the contract, the rest optional. */
export const payerRecord = c.object({
  id: payerId,
  merchantNo: c.string(),
  subEntityType,
  country: c.string(),
  companyNameEn: opt(),
  companyName: opt(),
  firstName: opt(),
  lastName: opt(),
  birthDate: opt(),
  addressEn1: opt(),
  addressEn2: opt(),
  addressEn3: opt(),
  postcode: opt(),
  email: opt(),
  areaCode: opt(),
  phoneNumber: opt(),
  state: opt(),
  city: opt(),
  idType: c.optional(payerIdType),
  idNumber: opt(),
  idValidDateFrom: opt(),
  idValidDateTo: opt(),
  registerNo: opt(),
  registerDate: opt(),
  createTime: c.optional(responseTime),
});

/**
 * One payout (txn/remittance result, txn/query, txn/queryList records). The contract shows
 * payoutId, requestId, payoutStatus and payoutMethod; the rest is our design (ASSUMPTIONS.md).
 */
export const transferRecord = c.object({
  payoutId,
  /** The merchant's id; read leniently as a number too. */
  requestId: c.idText(),
  payoutStatus,
  payoutMethod: c.optional(payoutPaymentMethod),
  merchantNo: opt(),
  beneficiaryId: c.optional(beneficiaryId),
  payerId: c.optional(payerId),
  sourceAmount: c.optional(responseAmount),
  sourceCurrency: opt(),
  targetAmount: c.optional(responseAmount),
  targetCurrency: opt(),
  /** Fee charged for the payout, in feeCurrency. */
  fee: c.optional(responseAmount),
  feeCurrency: opt(),
  /** Units of targetCurrency per unit of sourceCurrency. */
  exchangeRate: c.optional(responseAmount),
  chargeFlag: c.optional(chargeFlag),
  feeBearing: c.optional(feeBearing),
  reference: opt(),
  transactionPurpose: opt(),
  /** Set when payoutStatus is F. */
  errorCode: opt(),
  errorMsg: opt(),
  createTime: c.optional(responseTime),
  /** Set once the payout reached S or F. */
  finishTime: c.optional(responseTime),
});

/** The payout area's paged `data`: records plus total, size and current (core's PayoutPageData). */
export function payoutPageData<C extends AnyCodec>(record: C) {
  return c.object({
    records: c.array(record),
    total: c.optional(c.integer({ min: 0 })),
    size: c.optional(c.integer()),
    current: c.optional(c.integer()),
  });
}
