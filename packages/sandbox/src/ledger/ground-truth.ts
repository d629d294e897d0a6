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
  ledger: { transactions: readonly TruthAccountTransaction[] };
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
