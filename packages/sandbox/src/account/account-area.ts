/**
 * The account area: account transactions by serviceId, read from the merchant's ledger that
 * the card and payout areas post to, and the Global Accounts it holds. `createAccountArea` is
 * what areas.ts lists.
 */
import type { Area, AreaFactory } from "../runtime/area";
import { accountAdmin } from "./account-admin";
import { accountHandlers } from "./account-handlers";
import { GlobalAccounts } from "./global-accounts";

export const createAccountArea: AreaFactory = (runtime): Area => {
  const accounts = new GlobalAccounts(runtime);
  accounts.seed();
  return {
    name: "account",
    handlers: new Map(accountHandlers(runtime, accounts)),
    admin: accountAdmin(runtime, accounts),
    dump: () => ({
      globalAccounts: accounts.all().map((a) => ({ merchantNo: a.merchantNo, ...a.record })),
    }),
  };
};
