/**
 * txn/query, txn/queryVoucher, txn/queryList and acct/queryAcctCurrency. Lookups are by
 * requestId and/or payoutId (both must name the same payout; otherwise 40402). queryList
 * filters the create-time window (and the payout-time window, on finishTime) as
 * "YYYY-MM-DD HH:mm:ss" UTC, both ends inclusive, and pages in creation order.
 */
import {
  acctQueryAcctCurrency,
  txnQuery,
  txnQueryList,
  txnQueryVoucher,
} from "@merchantkit/contract";
import { addDecimal } from "@merchantkit/core";
import { type AnyHandler, type CallContext, handle } from "../runtime/area";
import { fail } from "../runtime/sandbox-error";
import { atScaleIfExact } from "./decimal-units";
import { accountOf, type PayoutContext } from "./payout-context";
import { payoutPage } from "./payout-paging";
import { AMOUNT_SCALE } from "./payout-pricing";
import type { PayoutEntry, TransferRecord } from "./payout-state";
import { inWindow } from "./payout-time";
import { voucherFileName, voucherPdf, voucherUrl } from "./voucher";

interface Lookup {
  requestId?: string | undefined;
  payoutId?: string | undefined;
}

export function findPayout(ctx: PayoutContext, p: Lookup, call: CallContext): PayoutEntry {
  const byId = p.payoutId === undefined ? undefined : ctx.state.payout(call.merchantNo, p.payoutId);
  const byRequest =
    p.requestId === undefined
      ? undefined
      : ctx.state.payoutByRequestId(call.merchantNo, p.requestId);
  const entry = byId ?? byRequest;
  if (!entry || (p.payoutId !== undefined && p.requestId !== undefined && byId !== byRequest)) {
    fail("40402", "payout not found");
  }
  return entry;
}

/** Per currency: available = ledger balance; frozen = what payouts still in P hold. */
function balances(ctx: PayoutContext, merchantNo: string, currency: string | undefined) {
  const ledger = accountOf(ctx, merchantNo);
  if (!ledger) return [];
  const frozen = new Map<string, string>();
  for (const entry of ctx.state.payouts.values()) {
    const c = entry.record.sourceCurrency;
    if (entry.merchantNo !== merchantNo || entry.record.payoutStatus !== "P" || c === undefined) {
      continue;
    }
    frozen.set(c, addDecimal(frozen.get(c) ?? "0", entry.debit));
  }
  const currencies = new Set([...Object.keys(ledger.balances()), ...frozen.keys()]);
  return [...currencies]
    .filter((c) => currency === undefined || c === currency)
    .sort()
    .map((c) => {
      const available = atScaleIfExact(ledger.balance(c), AMOUNT_SCALE);
      const held = atScaleIfExact(frozen.get(c) ?? "0", AMOUNT_SCALE);
      return {
        currency: c,
        availableBalance: available,
        frozenBalance: held,
        totalBalance: addDecimal(available, held),
      };
    });
}

export function txnQueryHandlers(ctx: PayoutContext): [string, AnyHandler][] {
  return [
    handle(txnQuery, (p, call) => ({ ...findPayout(ctx, p, call).record })),
    handle(txnQueryVoucher, (p, call) => {
      const { record } = findPayout(ctx, p, call);
      if (record.payoutStatus !== "S") {
        fail("42203", `no voucher: payout is ${record.payoutStatus}, only S has one`);
      }
      return {
        payoutId: record.payoutId,
        requestId: record.requestId,
        voucherUrl: voucherUrl(ctx.runtime.config.publicOrigin, record.payoutId),
        fileName: voucherFileName(record.payoutId),
        fileType: "pdf",
        content: voucherPdf(record).toString("base64"),
      };
    }),
    handle(txnQueryList, (p, call) => {
      const matches: TransferRecord[] = [];
      for (const entry of ctx.state.payouts.values()) {
        const r = entry.record;
        if (entry.merchantNo !== call.merchantNo) continue;
        if (!inWindow(r.createTime, p.createTimeStartTime, p.createTimeEndTime)) continue;
        if (!inWindow(r.finishTime, p.payoutStartTime, p.payoutEndTime)) continue;
        if (p.requestId !== undefined && r.requestId !== p.requestId) continue;
        if (p.payoutId !== undefined && r.payoutId !== p.payoutId) continue;
        if (p.payoutStatus !== undefined && r.payoutStatus !== p.payoutStatus) continue;
        if (p.payoutMethod !== undefined && r.payoutMethod !== p.payoutMethod) continue;
        matches.push({ ...r });
      }
      return payoutPage(matches, p.size, p.current);
    }),
    handle(acctQueryAcctCurrency, (p, call) => balances(ctx, call.merchantNo, p.currency)),
  ];
}
