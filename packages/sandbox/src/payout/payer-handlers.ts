/**
 * acct/addPayer (answers the new 64-bit payer id as a string) and acct/queryPayer: exact-match
 * filters, optional sort by any payer field (`column`, `asc`, default ascending), otherwise
 * creation order; size -1 returns every match on one page.
 */
import { acctAddPayer, acctQueryPayer, payerFields } from "@merchantkit/contract";
import { type AnyHandler, handle } from "../runtime/area";
import { fail } from "../runtime/sandbox-error";
import { compact, type PayoutContext } from "./payout-context";
import { payoutPage } from "./payout-paging";
import type { PayerEntry, PayerRecord } from "./payout-state";
import { formatPayoutTime } from "./payout-time";

const payerFieldNames = Object.keys(payerFields.shape);
const sortableColumns = new Set(["id", "merchantNo", "createTime", ...payerFieldNames]);
const filterNames = [
  "id",
  "subEntityType",
  "companyName",
  "companyNameEn",
  "firstName",
  "lastName",
  "country",
  "registerNo",
  "idType",
  "registerDate",
] as const;

export function payerHandlers(ctx: PayoutContext): [string, AnyHandler][] {
  return [
    handle(acctAddPayer, (p, call) => {
      const id = ctx.runtime.ids.next();
      const fields: Record<string, unknown> = {};
      const params = p as Record<string, unknown>;
      for (const name of payerFieldNames) fields[name] = params[name];
      const record = compact({
        id,
        merchantNo: call.merchantNo,
        ...fields,
        createTime: formatPayoutTime(call.now),
      }) as PayerRecord;
      const entry: PayerEntry = { record, merchantNo: call.merchantNo, createdAt: call.now };
      ctx.state.payers.set(id, entry);
      return id;
    }),
    handle(acctQueryPayer, (p, call) => {
      const column = p.column;
      if (column !== undefined && !sortableColumns.has(column)) {
        fail("40000", `column ${column} is not a payer field`);
      }
      const filters = filterNames.filter((name) => p[name] !== undefined);
      const matches: PayerRecord[] = [];
      for (const entry of ctx.state.payers.values()) {
        if (entry.merchantNo !== call.merchantNo) continue;
        const r = entry.record as Record<string, unknown>;
        if (filters.every((name) => r[name] === p[name])) matches.push({ ...entry.record });
      }
      if (column !== undefined) {
        const direction = p.asc === false ? -1 : 1;
        // Array.prototype.sort is stable, so equal values keep creation order.
        matches.sort((a, b) => direction * compareField(a, b, column));
      }
      return payoutPage(matches, p.size, p.current);
    }),
  ];
}

/** Text order of one field; a missing value sorts after every present one. */
function compareField(a: PayerRecord, b: PayerRecord, column: string): number {
  const x = (a as Record<string, unknown>)[column];
  const y = (b as Record<string, unknown>)[column];
  if (x === undefined) return y === undefined ? 0 : 1;
  if (y === undefined) return -1;
  const sx = String(x);
  const sy = String(y);
  return sx < sy ? -1 : sx > sy ? 1 : 0;
}
