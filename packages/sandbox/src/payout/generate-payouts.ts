/**
 * Seeded payouts for the generator: beneficiaries (reviewed) and remittances spread over a
 * period, with their P → S/F history, ledger postings (PAYOUT, FEE, PAYOUT_REFUND) and
 * notifications. Everything goes through the area's own handlers, called at past virtual times,
 * with the scheduler run up to each time first — so generated payouts follow exactly the rules
 * and lifecycle of payouts made through the API. Deterministic for a seed and a clock.
 */
import { addDecimal } from "@merchantkit/core";
import { topUpIfShort } from "../generator/top-up";
import type { AnyHandler, Runtime } from "../runtime/area";
import { seededRandom } from "../runtime/ids";
import { SandboxError } from "../runtime/sandbox-error";

export interface PayoutGenerateOptions {
  seed: number;
  payouts: number;
  days: number;
  /** Start of the period (epoch ms); default now − days. */
  startAt?: number | undefined;
}

export interface PayoutGenerateSummary {
  beneficiaries: number;
  payouts: number;
  /** Remittances the service refused; not created (none is refused for want of balance). */
  refused: number;
}

const DAY = 86_400_000;
// More than any fee the sandbox charges on a generated remittance.
const FEE_ROOM = "1000.00";
const FIRST = ["Ada", "Alan", "Grace", "Edsger", "Barbara", "Donald", "Frances", "John"];
const LAST = ["Lovelace", "Turing", "Hopper", "Dijkstra", "Liskov", "Knuth", "Allen", "Backus"];

function required(handlers: ReadonlyMap<string, AnyHandler>, name: string): AnyHandler {
  const handler = handlers.get(name);
  if (!handler) throw new Error(`payout area has no handler for ${name}`);
  return handler;
}

export function generatePayouts(
  runtime: Runtime,
  handlers: ReadonlyMap<string, AnyHandler>,
  options: PayoutGenerateOptions,
): PayoutGenerateSummary {
  const random = seededRandom(options.seed ^ 0x9e3779b9);
  const now = runtime.clock.now();
  const start = options.startAt ?? now - options.days * DAY;
  const merchantNo = runtime.config.merchantNo;
  const add = required(handlers, "payout.beneficiary.add");
  const remit = required(handlers, "payout.txn.remittance");
  const at = (t: number) => {
    runtime.scheduler.runDue(t);
    return { merchantNo, now: t };
  };

  const beneficiaryIds: string[] = [];
  const count = Math.max(1, Math.ceil(options.payouts / 20));
  for (let i = 0; i < count; i++) {
    const first = FIRST[i % FIRST.length] as string;
    const last = LAST[Math.floor(i / FIRST.length) % LAST.length] as string;
    const created = add(
      {
        merchantNo,
        merchantRefId: `gen-${options.seed}-${i}`,
        bankCountry: "US",
        payoutCurrency: "USD",
        entityType: "1",
        paymentMethod: "LOCAL",
        receiverInfo: {
          firstName: first,
          lastName: last,
          email: `${first}.${last}.${i}@example.com`.toLowerCase(),
        },
        address: {
          countryCode: "US",
          state: "NY",
          city: "New York",
          addressLine1: `${i + 1} Main St`,
          postalCode: "10001",
        },
        accountInfomation: {
          cardNumber: String(100_000_000_000 + options.seed * 10_000 + i),
          accountType: "0",
          branchCode: "021000021",
          bankHolderName: `${first} ${last}`,
        },
      },
      at(start + i),
    ) as { beneficiaryId: string };
    beneficiaryIds.push(created.beneficiaryId);
  }

  // Reviews finish before the first payout; payouts end a settle delay before now so most are final.
  const first = start + count + runtime.config.reviewDelayMs + 1;
  const last = Math.max(first, now - runtime.config.settleDelayMs - 1);
  const step = options.payouts > 1 ? Math.floor((last - first) / (options.payouts - 1)) : 0;
  let created = 0;
  let refused = 0;
  for (let i = 0; i < options.payouts; i++) {
    const cents = 1_000 + Math.floor(random() * 500_000);
    const sourceAmount = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
    const when = first + i * step;
    // Funded first (with room for the fee), as the card generator funds its deposits: on a
    // sandbox the card generator already ran on, the balance is otherwise spent.
    topUpIfShort(runtime, "USD", addDecimal(sourceAmount, FEE_ROOM), when - 60_000);
    try {
      remit(
        {
          merchantNo,
          beneficiaryId: beneficiaryIds[i % beneficiaryIds.length],
          payerDetail: {
            subEntityType: "1",
            country: "SG",
            firstName: "Grace",
            lastName: "Hopper",
          },
          sourceAmount,
          sourceCurrency: "USD",
          targetCurrency: "USD",
          requestId: `gen${options.seed}p${i}`,
          transactionPurpose: "SALARY",
          chargeFlag: "N",
          // About 3 % fail by the sandbox's documented rule, to give the reconciler refunds.
          ...(random() < 0.03 ? { reference: "fail" } : {}),
        },
        at(when),
      );
      created++;
    } catch (error) {
      if (!(error instanceof SandboxError)) throw error;
      refused++;
    }
  }
  runtime.scheduler.runDue(now);
  return { beneficiaries: beneficiaryIds.length, payouts: created, refused };
}
