/**
 * A card as it starts, whoever creates it (the card API, the admin route, the generator):
 * ACTIVE and empty, its holder's merchant, its product's currency. Funding is the CREATE
 * operation's business, not the card's.
 */
import type { IdFactory } from "../runtime/ids";
import type { Card, Cardholder } from "./issuing-records";
import type { ProductTerms } from "./products";

export function newCard(
  ids: IdFactory,
  holder: Cardholder,
  terms: ProductTerms,
  createdAt: number,
): Card {
  return {
    cardId: ids.next(),
    cardholderId: holder.cardholderId,
    merchantNo: holder.merchantNo,
    terms,
    currency: terms.product.currency,
    status: "ACTIVE",
    available: 0n,
    createdAt,
  };
}
