/**
 * The card products the simulated merchant may issue: one per card currency, each with a flat
 * card creation fee, a deposit fee rate and the per-operation amount limits. Product ids are
 * fixed (not drawn from the id factory) so tests, demos and docs can name them.
 */
import { toMinorUnits } from "@merchantkit/core";
import { currencyScale, parseRate, type Rate } from "./money-units";

export interface CardProduct {
  productId: string;
  name: string;
  currency: string;
  /** Where the cards are issued: a transaction at a merchant elsewhere pays a cross-border fee. */
  country: string;
  /** Flat fee per card created, charged to the merchant account (decimal string). */
  cardCreationFee: string;
  /** Fee per deposit (initial deposit included) as a rate of the amount, e.g. "0.015" = 1.5 %. */
  depositFeeRate: string;
  /** Smallest createCard / deposit amount (below: 80009). */
  minAmount: string;
  /** Largest createCard / deposit amount (above: 80008). */
  maxAmount: string;
  /** Most cards per cardholder that are not TERMINATED (beyond: 80011). */
  maxCardsPerCardholder: number;
}

export const defaultProducts: readonly CardProduct[] = [
  product("1953712585300000001", "USD", "US", "Virtual USD card", "1.00", "0.015"),
  product("1953712585300000002", "EUR", "DE", "Virtual EUR card", "1.00", "0.015"),
  product("1953712585300000003", "SGD", "SG", "Virtual SGD card", "1.50", "0.010"),
  product("1953712585300000004", "HKD", "HK", "Virtual HKD card", "8.00", "0.010"),
];

function product(
  productId: string,
  currency: string,
  country: string,
  name: string,
  cardCreationFee: string,
  depositFeeRate: string,
): CardProduct {
  return {
    productId,
    name,
    currency,
    country,
    cardCreationFee,
    depositFeeRate,
    minAmount: "1.00",
    maxAmount: "50000.00",
    maxCardsPerCardholder: 5,
  };
}

/** A product with its fee and limits pre-parsed into minor units, for the hot paths. */
export interface ProductTerms {
  product: CardProduct;
  scale: number;
  creationFeeUnits: bigint;
  depositFee: Rate;
  minUnits: bigint;
  maxUnits: bigint;
}

export function productTerms(product: CardProduct): ProductTerms {
  const scale = currencyScale(product.currency);
  return {
    product,
    scale,
    creationFeeUnits: toMinorUnits(product.cardCreationFee, scale),
    depositFee: parseRate(product.depositFeeRate),
    minUnits: toMinorUnits(product.minAmount, scale),
    maxUnits: toMinorUnits(product.maxAmount, scale),
  };
}
