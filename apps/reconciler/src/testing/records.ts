// Test support: app-form records with 64-bit ids, unique per call, overridable field by field.
import type { AccountTransactionInput } from "../store/account-transactions";
import type { CardTransactionInput } from "../store/card-transactions";
import type { OperateRecordInput } from "../store/operate-records";

/** Above 2^53: JSON.parse would print 1953712585351499800 for it. */
export const BIG_ID = "1953712585351499776";

let counter = 0;
/** A fresh 64-bit id as digits (BIG_ID + n), so tests sharing a database never collide. */
export function nextId(): string {
  counter++;
  return (
    BigInt(BIG_ID) +
    BigInt(counter) * 7919n +
    BigInt(process.pid % 1000) * 10n ** 9n
  ).toString();
}

const TIME = 1_780_000_000_123;

export function cardTxn(overrides: Partial<CardTransactionInput> = {}): CardTransactionInput {
  return {
    txnType: "AUTHORIZATION",
    txnStatus: "P",
    txnOrderNo: `T${nextId()}`,
    cardId: BIG_ID,
    authTime: TIME,
    authorizationCode: "A1B2C3",
    authMessageDesc: "Approved",
    transactionAmount: "0.10",
    transactionCurrency: "EUR",
    transactionTime: TIME + 1,
    cardAmount: "12345678901234567.89",
    cardCurrency: "USD",
    merchantName: 'CAFE "LE PETIT"\tParis',
    merchantCountryCode: "FR",
    merchantMccCode: "5814",
    ...overrides,
  };
}

export function operateRecord(overrides: Partial<OperateRecordInput> = {}): OperateRecordInput {
  return {
    operateRecordId: nextId(),
    cardId: BIG_ID,
    clientRequestId: `req-${nextId()}`,
    type: "DEPOSIT",
    status: "P",
    amount: "12345678901234567.89",
    currency: "USD",
    operateTime: TIME,
    feeList: [
      { feeType: "DEPOSIT", feeAmount: "0.10", feeCurrency: "USD" },
      { feeType: "CREATE", feeAmount: "1.00", feeCurrency: "USD" },
    ],
    ...overrides,
  };
}

export function accountTxn(
  overrides: Partial<AccountTransactionInput> = {},
): AccountTransactionInput {
  return {
    acntTxnId: nextId(),
    serviceId: BIG_ID,
    currency: "USD",
    balanceType: "AVAILABLE",
    amount: "-12345678901234567.89",
    balanceUpdDate: "2026-05-28T10:00:00.123Z",
    businessType: "CARD_DEPOSIT",
    externalOrderId: "req-1",
    ...overrides,
  };
}
