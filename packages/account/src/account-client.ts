/**
 * The account area's client: one core Transport with `apikey` + `x-timestamp` authentication,
 * and the two resource groups (transactions by serviceIds, Global Accounts).
 */
import { accountApiKeyAuth, createAreaTransport } from "@merchantkit/core";
import type { AccountClientOptions } from "./client-options";
import { GlobalAccounts } from "./global-accounts";
import { AccountTransactions } from "./transactions";

export class AccountClient {
  /** Balance change records, looked up by transaction order number (serviceId). */
  readonly transactions: AccountTransactions;
  /** Global Account details. */
  readonly globalAccounts: GlobalAccounts;

  constructor(options: AccountClientOptions) {
    const transport = createAreaTransport(options, {
      usage: "new AccountClient({ environment, apiKey })",
      area: "account",
      userAgent: "merchantkit-account",
      apiKey: "the account area's apikey",
      own: ["apiKey", "timestampUnit"],
      auth: ({ apiKey, timestampUnit }) => accountApiKeyAuth({ apiKey, timestampUnit }),
    });
    this.transactions = new AccountTransactions(transport);
    this.globalAccounts = new GlobalAccounts(transport);
  }
}
