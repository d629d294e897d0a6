/**
 * The card issuing client: one core Transport with the `ApiKey` header, and its resource
 * groups (cardholders, cards, operate records, card transactions, 3DS deliveries).
 */
import { createAreaTransport, issuingApiKeyAuth } from "@merchantkit/core";
import { Cardholders } from "./cardholders";
import { Cards } from "./cards";
import type { IssuingClientOptions } from "./client-options";
import { OperateRecords } from "./operate-records";
import { ThreeDs } from "./three-ds";
import { CardTransactions } from "./transactions";

export class IssuingClient {
  readonly cardholders: Cardholders;
  readonly cards: Cards;
  /** Outcomes of card operations (P → S or F). */
  readonly operateRecords: OperateRecords;
  /** Card transactions. */
  readonly transactions: CardTransactions;
  /** 3DS value deliveries. */
  readonly threeDs: ThreeDs;

  constructor(options: IssuingClientOptions) {
    const transport = createAreaTransport(options, {
      usage: "new IssuingClient({ environment, apiKey })",
      area: "issuing",
      userAgent: "merchantkit-issuing",
      apiKey: "the issuing ApiKey",
      merchantNo: true,
      own: ["apiKey"],
      auth: ({ apiKey }) => issuingApiKeyAuth({ apiKey }),
    });
    this.cardholders = new Cardholders(transport, options.merchantNo);
    this.cards = new Cards(transport);
    this.operateRecords = new OperateRecords(transport);
    this.transactions = new CardTransactions(transport);
    this.threeDs = new ThreeDs(transport);
  }
}
