/**
 * The account area's client: one core Transport with `apikey` + `x-timestamp` authentication,
 * and the two resource groups (transactions by serviceIds, Global Accounts).
 */
import {
  accountApiKeyAuth,
  ConfigurationError,
  resolveBaseUrl,
  Transport,
} from "@merchantkit/core";
import type { AccountClientOptions } from "./client-options";
import { GlobalAccounts } from "./global-accounts";
import { AccountTransactions } from "./transactions";

export class AccountClient {
  /** Balance change records, looked up by transaction order number (serviceId). */
  readonly transactions: AccountTransactions;
  /** Global Account details. */
  readonly globalAccounts: GlobalAccounts;

  constructor(options: AccountClientOptions) {
    if (typeof options !== "object" || options === null) {
      throw new ConfigurationError("new AccountClient({ environment, apiKey }) needs its options");
    }
    if (typeof options.apiKey !== "string" || options.apiKey.length === 0) {
      throw new ConfigurationError(
        "apiKey is required: the account area's apikey (a non-empty string)",
      );
    }
    // Resolved now so a wrong environment fails here, not on the first call.
    resolveBaseUrl(options.environment, "account");
    const { apiKey, timestampUnit, ...transportOptions } = options;
    const transport = new Transport({
      ...transportOptions,
      auth: accountApiKeyAuth({ apiKey, timestampUnit }),
      userAgent: transportOptions.userAgent ?? "merchantkit-account",
    });
    this.transactions = new AccountTransactions(transport);
    this.globalAccounts = new GlobalAccounts(transport);
  }
}
