/**
 * Everything the issuing area holds: products, cardholders, cards, operate records, card
 * transactions and 3DS deliveries, with the indexes the queries and admin routes look them up
 * by. Handlers, admin routes, lifecycles and the generator all work on one IssuingState.
 */
import type { Card, Cardholder, CardTxn, OperateRecord, ThreeDsRecord } from "./issuing-records";
import { seqOfTxnOrderNo } from "./issuing-records";
import { type CardProduct, defaultProducts, type ProductTerms, productTerms } from "./products";
import { RecordLog } from "./record-log";

export class IssuingState {
  readonly products = new Map<string, ProductTerms>();
  readonly cardholders = new Map<string, Cardholder>();
  /** merchantNo + lower-cased e-mail → cardholderId (e-mails are unique per merchant). */
  readonly emails = new Map<string, string>();
  readonly cards = new Map<string, Card>();
  /** Cards per cardholder, in creation order. */
  readonly cardsOfHolder = new Map<string, Card[]>();

  readonly operations = new RecordLog<OperateRecord>((r) => r.operateTime, {
    cardId: (r) => r.card.cardId,
    type: (r) => r.type,
    clientRequestId: (r) => r.clientRequestId,
  });
  readonly operationsById = new Map<string, OperateRecord>();

  readonly transactions = new RecordLog<CardTxn>((t) => t.transactionTime, {
    cardId: (t) => t.card.cardId,
    txnType: (t) => t.txnType,
  });
  /** Transactions by sequence number (the number inside txnOrderNo). */
  txnBySeq: CardTxn[] = [];
  /** Remaining hold (card minor units) of each authorization still P. */
  readonly holds = new Map<CardTxn, bigint>();
  /** Amount refunded so far (transaction-currency minor units) per clearing. */
  readonly refunded = new Map<CardTxn, bigint>();
  /** Amount cleared or reversed so far (transaction-currency minor units) per pending authorization. */
  readonly consumed = new Map<CardTxn, bigint>();

  readonly threeDs = new RecordLog<ThreeDsRecord>((r) => r.sendTime, {
    cardId: (r) => r.card.cardId,
    txnOrderNo: (r) => r.txnOrderNo,
  });

  #opSeq = 0;
  #threeDsSeq = 0;

  constructor(products: readonly CardProduct[] = defaultProducts) {
    for (const p of products) this.products.set(p.productId, productTerms(p));
  }

  nextOpSeq(): number {
    return this.#opSeq++;
  }

  nextThreeDsSeq(): number {
    return this.#threeDsSeq++;
  }

  /** The sequence number the next transaction gets. */
  get nextTxnSeq(): number {
    return this.txnBySeq.length;
  }

  emailKey(merchantNo: string, email: string): string {
    return `${merchantNo}\n${email.toLowerCase()}`;
  }

  addCardholder(holder: Cardholder): void {
    this.cardholders.set(holder.cardholderId, holder);
    this.emails.set(this.emailKey(holder.merchantNo, holder.email), holder.cardholderId);
  }

  addCard(card: Card): void {
    this.cards.set(card.cardId, card);
    const list = this.cardsOfHolder.get(card.cardholderId);
    if (list) list.push(card);
    else this.cardsOfHolder.set(card.cardholderId, [card]);
  }

  addOperation(record: OperateRecord): void {
    this.operations.insert(record);
    this.operationsById.set(record.operateRecordId, record);
  }

  /** Adds a transaction created with seq = nextTxnSeq. */
  addTransaction(txn: CardTxn): void {
    if (txn.seq !== this.txnBySeq.length) throw new Error("transaction seq out of order");
    this.txnBySeq.push(txn);
    this.transactions.insert(txn);
  }

  findTransaction(txnOrderNo: string): CardTxn | undefined {
    const seq = seqOfTxnOrderNo(txnOrderNo);
    return seq < 0 ? undefined : this.txnBySeq[seq];
  }

  addThreeDs(record: ThreeDsRecord): void {
    this.threeDs.insert(record);
  }
}
