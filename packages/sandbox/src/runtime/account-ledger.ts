/**
 * The merchant's account as the service holds it: a balance per currency and one account
 * transaction record per money movement, each tied to the business record that caused it by
 * `serviceId` (see docs/assumptions.md: a card operation's operateRecordId, a payout's
 * payoutId). Card and payout areas post here; the account area's endpoints read from here.
 */
import { addDecimal, compareDecimal, negateDecimal } from "@merchantkit/core";
import type { IdFactory } from "./ids";

export interface AccountTransaction {
  acntTxnId: string;
  serviceId: string;
  currency: string;
  balanceType: string;
  /** Signed decimal string: negative for a debit. */
  amount: string;
  /** ISO 8601 UTC. */
  balanceUpdDate: string;
  businessType: string;
  externalOrderId?: string | undefined;
  remark?: string | undefined;
}

export interface Posting {
  serviceId: string;
  currency: string;
  amount: string;
  businessType: string;
  balanceType?: string;
  externalOrderId?: string;
  remark?: string;
  at: number;
}

export class AccountLedger {
  readonly #ids: IdFactory;
  readonly #balances = new Map<string, string>();
  readonly #byServiceId = new Map<string, AccountTransaction[]>();
  readonly transactions: AccountTransaction[] = [];

  constructor(ids: IdFactory, opening: Record<string, string>) {
    this.#ids = ids;
    for (const [currency, amount] of Object.entries(opening)) this.#balances.set(currency, amount);
  }

  balance(currency: string): string {
    return this.#balances.get(currency) ?? "0";
  }

  balances(): Record<string, string> {
    return Object.fromEntries(this.#balances);
  }

  /** True when `amount` can be debited in `currency` without going below zero. */
  covers(currency: string, amount: string): boolean {
    return compareDecimal(this.balance(currency), amount) >= 0;
  }

  credit(p: Posting): AccountTransaction {
    return this.#post(p, p.amount);
  }

  debit(p: Posting): AccountTransaction {
    return this.#post(p, negateDecimal(p.amount));
  }

  byServiceId(serviceId: string): readonly AccountTransaction[] {
    return this.#byServiceId.get(serviceId) ?? [];
  }

  #post(p: Posting, signed: string): AccountTransaction {
    const txn: AccountTransaction = {
      acntTxnId: this.#ids.next(),
      serviceId: p.serviceId,
      currency: p.currency,
      balanceType: p.balanceType ?? "AVAILABLE",
      amount: signed,
      balanceUpdDate: new Date(p.at).toISOString(),
      businessType: p.businessType,
      externalOrderId: p.externalOrderId,
      remark: p.remark,
    };
    this.#balances.set(p.currency, addDecimal(this.balance(p.currency), signed));
    this.transactions.push(txn);
    const list = this.#byServiceId.get(p.serviceId);
    if (list) list.push(txn);
    else this.#byServiceId.set(p.serviceId, [txn]);
    return txn;
  }
}
