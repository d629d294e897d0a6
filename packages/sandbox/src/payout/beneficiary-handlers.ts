/**
 * beneficiary/add, edit, queryDetail and queryList. A beneficiary is checked against its route's
 * template (42201 when no route exists, 40000 naming the missing Y keys) and must not repeat an
 * existing one of the merchant: same accountInfomation.cardNumber, bankCountry and
 * payoutCurrency → 40901, with the terse message the provider gives (the way out is queryList
 * by cardNumber).
 */
import {
  beneficiaryAdd,
  beneficiaryEdit,
  beneficiaryQueryDetail,
  beneficiaryQueryList,
} from "@merchantkit/contract";
import { type AnyHandler, type CallContext, handle } from "../runtime/area";
import { fail } from "../runtime/sandbox-error";
import { skipReview, startReview } from "./beneficiary-review";
import { findRoute, missingRequiredFields, type PaymentRoute } from "./payment-routes";
import { compact, type PayoutContext } from "./payout-context";
import { payoutPage } from "./payout-paging";
import type { BeneficiaryEntry, BeneficiaryRecord } from "./payout-state";
import { formatPayoutTime } from "./payout-time";

type Parts = Record<string, unknown>;

interface BeneficiaryInput {
  merchantRefId: string;
  bankCountry: string;
  payoutCurrency: string;
  entityType: "0" | "1";
  paymentMethod: string;
  receiverInfo: Parts;
  address: Parts;
  accountInfomation: Parts;
}

/** The route of `p`, checked field by field against its template. */
function checkedRoute(p: BeneficiaryInput): PaymentRoute {
  const route = findRoute(p);
  if (!route) {
    fail(
      "42201",
      `payment method ${p.paymentMethod} is not available for ${p.bankCountry}/${p.payoutCurrency} and entityType ${p.entityType}`,
    );
  }
  const missing = missingRequiredFields(route, p);
  if (missing.length > 0) {
    fail(
      "40000",
      `${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} required for ${p.bankCountry}/${p.payoutCurrency} ${p.paymentMethod} (entityType ${p.entityType})`,
    );
  }
  return route;
}

function cardNumberOf(parts: Parts | undefined): string | undefined {
  const card = parts?.cardNumber;
  return typeof card === "string" && card.trim() ? card.trim() : undefined;
}

function rejectDuplicate(
  ctx: PayoutContext,
  merchantNo: string,
  p: BeneficiaryInput,
  self?: string,
): void {
  const card = cardNumberOf(p.accountInfomation);
  if (card === undefined) return;
  for (const entry of ctx.state.beneficiaries.values()) {
    const r = entry.record;
    if (
      entry.merchantNo === merchantNo &&
      r.beneficiaryId !== self &&
      r.bankCountry === p.bankCountry &&
      r.payoutCurrency === p.payoutCurrency &&
      cardNumberOf(r.accountInfomation as Parts | undefined) === card
    ) {
      fail("40901", "beneficiary already exists");
    }
  }
}

function fieldsOf(p: BeneficiaryInput) {
  return {
    merchantRefId: p.merchantRefId,
    bankCountry: p.bankCountry,
    payoutCurrency: p.payoutCurrency,
    entityType: p.entityType,
    paymentMethod: p.paymentMethod,
    receiverInfo: { ...p.receiverInfo },
    address: { ...p.address },
    accountInfomation: { ...p.accountInfomation },
  };
}

function add(ctx: PayoutContext, p: BeneficiaryInput, call: CallContext) {
  const route = checkedRoute(p);
  rejectDuplicate(ctx, call.merchantNo, p);
  const time = formatPayoutTime(call.now);
  const entry: BeneficiaryEntry = {
    record: {
      beneficiaryId: ctx.runtime.ids.next(),
      payeeStatus: "UNNECESSARY",
      merchantNo: call.merchantNo,
      ...fieldsOf(p),
      createTime: time,
      updateTime: time,
    },
    merchantNo: call.merchantNo,
    createdAt: call.now,
    reviewGeneration: 0,
  };
  ctx.state.beneficiaries.set(entry.record.beneficiaryId, entry);
  if (route.review) startReview(ctx, entry, call.now);
  return { beneficiaryId: entry.record.beneficiaryId, payeeStatus: entry.record.payeeStatus };
}

/** Edit keeps the id, replaces the fields and starts the review again (or none, per route). */
function edit(
  ctx: PayoutContext,
  p: BeneficiaryInput & { beneficiaryId: string },
  call: CallContext,
) {
  const entry = ctx.state.beneficiary(call.merchantNo, p.beneficiaryId);
  if (!entry) fail("40400", "beneficiary not found");
  const route = checkedRoute(p);
  rejectDuplicate(ctx, call.merchantNo, p, p.beneficiaryId);
  Object.assign(entry.record, fieldsOf(p), { updateTime: formatPayoutTime(call.now) });
  if (route.review) startReview(ctx, entry, call.now);
  else skipReview(entry);
  return { beneficiaryId: entry.record.beneficiaryId, payeeStatus: entry.record.payeeStatus };
}

/** A copy, so a later edit never changes an answer already handed out. */
function view(record: BeneficiaryRecord): BeneficiaryRecord {
  return compact({ ...record });
}

export function beneficiaryHandlers(ctx: PayoutContext): [string, AnyHandler][] {
  return [
    handle(beneficiaryAdd, (p, call) => add(ctx, p as BeneficiaryInput, call)),
    handle(beneficiaryEdit, (p, call) =>
      edit(ctx, p as BeneficiaryInput & { beneficiaryId: string }, call),
    ),
    handle(beneficiaryQueryDetail, (p, call) => {
      const entry = ctx.state.beneficiary(call.merchantNo, p.beneficiaryId);
      if (!entry) fail("40400", "beneficiary not found");
      return view(entry.record);
    }),
    handle(beneficiaryQueryList, (p, call) => {
      const card = p.cardNumber?.trim();
      const matches: BeneficiaryRecord[] = [];
      for (const entry of ctx.state.beneficiaries.values()) {
        const r = entry.record;
        if (entry.merchantNo !== call.merchantNo) continue;
        if (p.payeeStatus !== undefined && r.payeeStatus !== p.payeeStatus) continue;
        if (p.beneficiaryId !== undefined && r.beneficiaryId !== p.beneficiaryId) continue;
        if (card !== undefined && cardNumberOf(r.accountInfomation as Parts | undefined) !== card) {
          continue;
        }
        matches.push(view(r));
      }
      return payoutPage(matches, p.size, p.current);
    }),
  ];
}
