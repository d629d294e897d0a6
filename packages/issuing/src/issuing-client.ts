/**
 * The card issuing client: one core Transport with the `ApiKey` header, and its resource
 * groups (cardholders, cards, operate records, card transactions, 3DS deliveries).
 */
import {
  ConfigurationError,
  issuingApiKeyAuth,
  resolveBaseUrl,
  Transport,
} from "@merchantkit/core";
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
    if (typeof options !== "object" || options === null) {
      throw new ConfigurationError("new IssuingClient({ environment, apiKey }) needs its options");
    }
    if (typeof options.apiKey !== "string" || options.apiKey.length === 0) {
      throw new ConfigurationError("apiKey is required: the issuing ApiKey (a non-empty string)");
    }
    if (
      options.merchantNo !== undefined &&
      (typeof options.merchantNo !== "string" || options.merchantNo.length === 0)
    ) {
      throw new ConfigurationError("merchantNo, when given, must be a non-empty string");
    }
    // Resolved now so a wrong environment fails here, not on the first call.
    resolveBaseUrl(options.environment, "issuing");
    const { apiKey, merchantNo, ...transportOptions } = options;
    const transport = new Transport({
      ...transportOptions,
      auth: issuingApiKeyAuth({ apiKey }),
      merchantNo,
      userAgent: transportOptions.userAgent ?? "merchantkit-issuing",
    });
    this.cardholders = new Cardholders(transport, options.merchantNo);
    this.cards = new Cards(transport);
    this.operateRecords = new OperateRecords(transport);
    this.transactions = new CardTransactions(transport);
    this.threeDs = new ThreeDs(transport);
  }
}
