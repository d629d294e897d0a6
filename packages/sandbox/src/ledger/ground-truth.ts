// The part of the sandbox's ground truth (admin.state()) the ledger generator reads, typed
// narrowly so a test can also build one by hand.

export interface TruthCardTransaction {
  txnType: string;
  txnStatus: string;
  txnOrderNo: string;
  cardId: string;
  originTxnOrderNo?: string | undefined;
  originTxnOrderNoForRefund?: string | undefined;
  transactionTime?: number | undefined;
  cardAmount?: string | undefined;
  cardCurrency?: string | undefined;
  settleAmount?: string | undefined;
  settleCurrency?: string | undefined;
  settleTime?: number | undefined;
  transactionFee?: string | undefined;
  transactionFeeCurrency?: string | undefined;
  crossBorderFee?: string | undefined;
  crossBorderFeeCurrency?: string | undefined;
  exchangeFee?: string | undefined;
  exchangeFeeCurrency?: string | undefined;
  merchantName?: string | undefined;
}

export interface TruthOperateRecord {
  operateRecordId: string;
  cardId: string;
  clientRequestId: string;
  type: string;
  status: string;
  amount?: string | undefined;
  currency?: string | undefined;
  operateTime?: number | undefined;
  feeList?: readonly { feeType: string; feeAmount: string; feeCurrency: string }[] | undefined;
}

export interface TruthAccountTransaction {
  acntTxnId: string;
  serviceId: string;
  currency: string;
  amount: string;
  balanceUpdDate: string;
  businessType: string;
}

/** What writeLedger needs: the sandbox's `admin.state()` answer has this shape. */
export interface GroundTruth {
  clock?: { now: number } | undefined;
  /** The dump's configuration: its merchantNo is the parent's, `children` its sub-merchants. */
  config?: { merchantNo?: unknown; children?: unknown } | undefined;
  /** The configured (parent) merchant's account. */
  ledger: { transactions: readonly TruthAccountTransaction[] };
  /** Each sub-merchant's own account, by merchantNo (absent in dumps of older sandboxes). */
  subMerchantLedgers?:
    | Record<string, { transactions: readonly TruthAccountTransaction[] }>
    | undefined;
  areas: { [area: string]: { [key: string]: unknown } };
}

export function issuingRecords(truth: GroundTruth): {
  cardTransactions: TruthCardTransaction[];
  operateRecords: TruthOperateRecord[];
} {
  const issuing = truth.areas.issuing ?? {};
  return {
    cardTransactions: (issuing.cardTransactions ?? []) as TruthCardTransaction[],
    operateRecords: (issuing.operateRecords ?? []) as TruthOperateRecord[],
  };
}

/**
 * Which account movements belong to which merchant: the parent's under its merchantNo (the
 * dump's config, or `parentMerchantNo`), then each sub-merchant's own, in `children` order.
 * A movement belongs to exactly one merchant; a serviceId never spans two.
 */
export function movementsByMerchant(
  truth: GroundTruth,
  parentMerchantNo?: string,
): Map<string, readonly TruthAccountTransaction[]> {
  const parent = parentMerchantNo ?? truth.config?.merchantNo;
  if (typeof parent !== "string") {
    throw new TypeError(
      "parentMerchantNo: required when the ground truth has no config.merchantNo",
    );
  }
  const out = new Map<string, readonly TruthAccountTransaction[]>([
    [parent, truth.ledger.transactions],
  ]);
  for (const [merchantNo, ledger] of Object.entries(truth.subMerchantLedgers ?? {})) {
    out.set(merchantNo, ledger.transactions);
  }
  return out;
}
