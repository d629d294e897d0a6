/**
 * Fees of a card transaction, charged on the card in its currency when a clearing posts:
 * an exchange fee when the transaction currency differs from the card's, a cross-border fee
 * when the merchant is outside the card's issuing country, and a flat fee on ATM withdrawals.
 * Shared by the live lifecycle and the generator so both charge the same cents.
 */
import { fromMinorUnits, toMinorUnits } from "@merchantkit/core";
import type { Card, MerchantInfo } from "./issuing-records";
import { applyRate, parseRate } from "./money-units";

export const EXCHANGE_FEE_RATE = "0.02";
export const CROSS_BORDER_FEE_RATE = "0.008";
/** Flat fee per ATM withdrawal (MCC 6011), in the card currency. */
export const ATM_FEE = "2.00";
export const ATM_MCC = "6011";

const exchangeRate = parseRate(EXCHANGE_FEE_RATE);
const crossBorderRate = parseRate(CROSS_BORDER_FEE_RATE);

export interface TxnFees {
  transactionFee: string | undefined;
  crossBorderFee: string | undefined;
  exchangeFee: string | undefined;
  /** All three together, in card minor units. */
  totalUnits: bigint;
}

export const NO_FEES: TxnFees = {
  transactionFee: undefined,
  crossBorderFee: undefined,
  exchangeFee: undefined,
  totalUnits: 0n,
};

export function clearingFees(
  card: Card,
  merchant: MerchantInfo,
  txnCurrency: string,
  cardUnits: bigint,
): TxnFees {
  const scale = card.terms.scale;
  const exchange = txnCurrency !== card.currency ? applyRate(cardUnits, exchangeRate) : 0n;
  const crossBorder =
    merchant.merchantCountryCode !== card.terms.product.country
      ? applyRate(cardUnits, crossBorderRate)
      : 0n;
  const flat = merchant.merchantMccCode === ATM_MCC ? toMinorUnits(ATM_FEE, scale) : 0n;
  if (exchange === 0n && crossBorder === 0n && flat === 0n) return NO_FEES;
  return {
    transactionFee: flat > 0n ? fromMinorUnits(flat, scale) : undefined,
    crossBorderFee: crossBorder > 0n ? fromMinorUnits(crossBorder, scale) : undefined,
    exchangeFee: exchange > 0n ? fromMinorUnits(exchange, scale) : undefined,
    totalUnits: exchange + crossBorder + flat,
  };
}
