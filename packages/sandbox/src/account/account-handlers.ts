/**
 * transactions/service/query and global/getDetail. The server has already checked the apikey,
 * x-timestamp and that an onBehalfOf is a child of the merchant; `call.merchantNo` is the
 * merchant the call acts for.
 */
import { accountGlobalGetDetail, accountTransactionsServiceQuery } from "@merchantkit/contract";
import type { AccountTransaction } from "../runtime/account-ledger";
import { type AnyHandler, handle, type Runtime } from "../runtime/area";
import { SandboxError } from "../runtime/sandbox-error";
import type { GlobalAccounts } from "./global-accounts";

/** An account-area failure with its structured error object. */
function accountError(code: string, message: string, field?: string): never {
  throw new SandboxError(code, message, 200, {
    code,
    message,
    ...(field ? { details: [{ field, message }] } : {}),
  });
}

function transactionApp(t: AccountTransaction) {
  return {
    acntTxnId: t.acntTxnId,
    serviceId: t.serviceId,
    currency: t.currency,
    balanceType: t.balanceType,
    amount: t.amount,
    balanceUpdDate: t.balanceUpdDate,
    businessType: t.businessType,
    ...(t.externalOrderId === undefined ? {} : { externalOrderId: t.externalOrderId }),
    ...(t.remark === undefined ? {} : { remark: t.remark }),
  };
}

export function accountHandlers(
  runtime: Runtime,
  accounts: GlobalAccounts,
): [string, AnyHandler][] {
  return [
    handle(accountTransactionsServiceQuery, (p, call) => {
      // The acting merchant's own account: a sub-merchant (onBehalfOf) sees its movements
      // only, never the parent's, and the parent never a sub-merchant's without onBehalfOf.
      const ledger = runtime.ledgers.of(call.merchantNo);
      if (!ledger) return { list: [] };
      const seen = new Set<string>();
      const list = [];
      for (const serviceId of p.serviceIds) {
        if (seen.has(serviceId)) continue;
        seen.add(serviceId);
        for (const t of ledger.byServiceId(serviceId)) list.push(transactionApp(t));
      }
      return { list };
    }),
    handle(accountGlobalGetDetail, (p, call) => {
      const byId = p.globalAccountId === undefined ? undefined : accounts.byId(p.globalAccountId);
      const byNo = p.globalAccountNo === undefined ? undefined : accounts.byNo(p.globalAccountNo);
      if (p.globalAccountId !== undefined && !byId) {
        accountError("40004", "global account not found", "globalAccountId");
      }
      if (p.globalAccountNo !== undefined && !byNo) {
        accountError("40004", "global account not found", "globalAccountNo");
      }
      if (byId && byNo && byId !== byNo) {
        accountError(
          "40001",
          "globalAccountId and globalAccountNo name different accounts",
          "globalAccountNo",
        );
      }
      const held = byId ?? byNo;
      if (!held) return accountError("40004", "global account not found", "globalAccountId");
      if (held.merchantNo !== call.merchantNo) {
        accountError("40009", "caller not authorized for the global account");
      }
      return { ...held.record };
    }),
  ];
}
