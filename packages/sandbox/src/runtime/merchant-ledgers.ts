/**
 * Every merchant account the sandbox holds: the configured (parent) merchant's and one per
 * sub-merchant (`config.children`), each with its own balances and movements, as the service
 * keeps a platform's sub-merchants apart. The account area answers an onBehalfOf query from the
 * child's own account; a payout made as a child debits the child's.
 */
import { AccountLedger, type AccountTransaction } from "./account-ledger";
import type { SandboxConfig } from "./config";
import type { IdFactory } from "./ids";

/** One merchant account as the state dump shows it. */
export interface LedgerDump {
  balances: Record<string, string>;
  transactions: readonly AccountTransaction[];
}

export class MerchantLedgers {
  readonly #config: SandboxConfig;
  readonly #ids: IdFactory;
  readonly #parent: AccountLedger;
  readonly #children = new Map<string, AccountLedger>();

  /** `parent` is the configured merchant's account (runtime.ledger). */
  constructor(config: SandboxConfig, ids: IdFactory, parent: AccountLedger) {
    this.#config = config;
    this.#ids = ids;
    this.#parent = parent;
  }

  /**
   * The account of `merchantNo`: the configured merchant's, or a configured sub-merchant's own
   * (opened empty, no opening balance, on first use); undefined for any other merchant. Ids
   * come from the runtime's one factory, so acntTxnIds never repeat across merchants.
   */
  of(merchantNo: string): AccountLedger | undefined {
    if (merchantNo === this.#config.merchantNo) return this.#parent;
    if (!this.#config.children.includes(merchantNo)) return undefined;
    let ledger = this.#children.get(merchantNo);
    if (!ledger) {
      ledger = new AccountLedger(this.#ids, {});
      this.#children.set(merchantNo, ledger);
    }
    return ledger;
  }

  /**
   * Each configured sub-merchant's balances and movements, in `children` order (an account
   * never used is empty): the per-entity ground truth of the state dump.
   */
  subMerchants(): Record<string, LedgerDump> {
    const out: Record<string, LedgerDump> = {};
    for (const child of this.#config.children) {
      if (child === this.#config.merchantNo) continue;
      const ledger = this.#children.get(child);
      out[child] = { balances: ledger?.balances() ?? {}, transactions: ledger?.transactions ?? [] };
    }
    return out;
  }
}
