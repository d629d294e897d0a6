/**
 * What the re-read schedule costs a run, and whether that grows with history (issue 40).
 *
 * Two Postgres databases side by side, alike but for their history: `small` holds 10,000
 * settled serviceIds (one posting each), `large` RECONCILER_REREAD_HISTORY (default 1,000,000).
 * In each, DUE serviceIds (default 5,000, the default RECONCILER_REREAD_LIMIT) are past their
 * re-read time. One account-stream run re-reads them: the account client answers from memory
 * with the postings the seed stored (a provider with nothing new, the usual case), so what is
 * timed is the worker's own cost — finding the due ids, the upsert finding every posting
 * unchanged, the marks. Printed: that run on each history (large ÷ small is the figure: 1.00
 * means the cost follows what is due, not history), and a run with nothing due on the large one.
 * The provider's side is arithmetic: DUE / 100 calls at RECONCILER_RPS.
 *
 * Needs DATABASE_URL (throwaway databases are created on it and dropped).
 */
import { performance } from "node:perf_hooks";
import { loadConfig } from "../apps/reconciler/src/config/load-config";
import { openDatabase } from "../apps/reconciler/src/db/connect";
import type { Db } from "../apps/reconciler/src/db/database";
import { queryText } from "../apps/reconciler/src/db/query-rows";
import { createScratchDatabase } from "../apps/reconciler/src/db/scratch-database";
import type { AccountTransactionInput } from "../apps/reconciler/src/store/account-transactions";
import { commitWindow } from "../apps/reconciler/src/store/commit-window";
import { syncAccountStream } from "../apps/reconciler/src/sync/account-stream";
import type { SyncContext } from "../apps/reconciler/src/sync/sync-types";
import { benchSetting, median, postgresServer } from "./harness";

const SMALL_HISTORY = 10_000;
const ROUNDS = 5;

/** The one posting the provider holds under a serviceId (the same on every read). */
function postingOf(serviceId: string): AccountTransactionInput {
  return {
    acntTxnId: `9${serviceId}`,
    serviceId,
    currency: "USD",
    balanceType: "AVAILABLE",
    amount: "-12.34",
    balanceUpdDate: "2026-10-01T10:00:00.000Z",
    businessType: "PAYOUT",
    externalOrderId: `req-${serviceId}`,
  };
}

const dueId = (i: number) => String(7_000_000_000_000_000_000n + BigInt(i));

/**
 * History in SQL (settled ids and their postings; never read by the timed run), then the due
 * ids through the sync's own commit, so their stored hashes are the ones a re-read compares.
 */
async function seed(db: Db, history: number, due: number): Promise<void> {
  await queryText(
    db,
    `INSERT INTO service_ids (service_id, source, first_seen_at, revealed_at, fetched_at)
     SELECT (1000000000000000000 + g)::text, 'operate_record', now() - interval '60 days',
       now() - interval '60 days', now() - interval '59 days'
     FROM generate_series(1, ${history}) g`,
  );
  await queryText(
    db,
    `INSERT INTO account_transactions (acnt_txn_id, service_id, currency, balance_type, amount,
       balance_upd_date, business_type, raw, raw_hash, version, source)
     SELECT (2000000000000000000 + g)::text, (1000000000000000000 + g)::text, 'USD', 'AVAILABLE',
       -1.00, now() - interval '60 days', 'CARD_DEPOSIT', '{}'::jsonb, md5(g::text), 1, 'sync'
     FROM generate_series(1, ${history}) g`,
  );
  const ids = Array.from({ length: due }, (_, i) => dueId(i));
  for (let i = 0; i < ids.length; i += 1_000)
    await commitWindow(db, {
      stream: "account_transactions",
      records: { accountTransactions: ids.slice(i, i + 1_000).map(postingOf) },
    });
  await queryText(
    db,
    `INSERT INTO service_ids (service_id, source, revealed_at, fetched_at, reread_at)
     SELECT id, 'payout', now() - interval '2 hours', now() - interval '2 hours',
       now() - interval '1 minute'
     FROM jsonb_array_elements_text('${JSON.stringify(ids)}'::jsonb) AS id`,
  );
  await queryText(db, "ANALYZE");
}

function contextOf(db: Db): SyncContext {
  const config = loadConfig({ RECONCILER_REREAD_LIMIT: "1000000" });
  const account = {
    transactions: {
      listByServiceIds: async (ids: string[]) => ids.map(postingOf),
    },
  };
  return {
    db,
    config,
    issuing: {} as never,
    payout: {} as never,
    account: account as never,
    log: () => {},
  };
}

/** The seeded due ids past their re-read time again, for the next round. */
const dueAgain = (db: Db) =>
  queryText(
    db,
    "UPDATE service_ids SET reread_at = now() - interval '1 minute' WHERE source = 'payout'",
  );

/** One account-stream run; its wall time and how many ids it re-read. */
async function timedRun(db: Db) {
  const started = performance.now();
  const summary = await syncAccountStream(contextOf(db), {});
  const ms = performance.now() - started;
  if (summary.outcome !== "ok") throw new Error(`run ended ${summary.outcome}: ${summary.error}`);
  return { ms, reread: summary.serviceIdsReread ?? 0, unchanged: summary.unchanged };
}

export async function run(): Promise<void> {
  const url = postgresServer("the re-read bench");
  if (!url) return;
  const large = Number(benchSetting("RECONCILER_REREAD_HISTORY") ?? 1_000_000);
  const due = Number(benchSetting("RECONCILER_REREAD_DUE") ?? 5_000);
  const scratches = await Promise.all([
    createScratchDatabase(url, "reconciler_bench_small"),
    createScratchDatabase(url, "reconciler_bench_large"),
  ]);
  const databases = await Promise.all(scratches.map((s) => openDatabase({ url: s.url })));
  try {
    const [small, big] = databases.map((d) => d.db) as [Db, Db];
    const seeding = performance.now();
    await seed(small, SMALL_HISTORY, due);
    await seed(big, large, due);
    console.log(`seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
    // Rounds alternate the order of the two histories; the median of each is printed.
    const times: { small: number[]; large: number[] } = { small: [], large: [] };
    let onSmall = await timedRun(small);
    let onLarge = await timedRun(big);
    for (let round = 0; round < ROUNDS; round++) {
      await Promise.all([dueAgain(small), dueAgain(big)]);
      const order = round % 2 === 0 ? (["small", "large"] as const) : (["large", "small"] as const);
      for (const which of order) {
        const r = await timedRun(which === "small" ? small : big);
        times[which].push(r.ms);
        if (which === "small") onSmall = r;
        else onLarge = r;
      }
    }
    onSmall = { ...onSmall, ms: median(times.small) };
    onLarge = { ...onLarge, ms: median(times.large) };
    const nothingDue = await timedRun(big);
    const rows = [
      [`re-read ${due} ids, ${SMALL_HISTORY.toLocaleString("en-US")} history (baseline)`, onSmall],
      [`re-read ${due} ids, ${large.toLocaleString("en-US")} history`, onLarge],
      [`nothing due, ${large.toLocaleString("en-US")} history`, nothingDue],
    ] as const;
    console.log(
      `\n## one account-stream run with re-reads due (database side; client in memory; median of ${ROUNDS})`,
    );
    console.log(`${"case".padEnd(48)}  ${"ms".padStart(8)}  re-read  unchanged  ratio`);
    for (const [name, r] of rows)
      console.log(
        `${name.padEnd(48)}  ${r.ms.toFixed(0).padStart(8)}  ${String(r.reread).padStart(7)}  ${String(r.unchanged).padStart(9)}  ${(r.ms / onSmall.ms).toFixed(2)}×`,
      );
    const rps = 20;
    console.log(
      `provider side: ${Math.ceil(due / 100)} calls of 100 ids = ${(due / 100 / rps).toFixed(1)} s at the default ${rps} requests/s`,
    );
  } finally {
    await Promise.all(databases.map((d) => d.close()));
    await Promise.all(scratches.map((s) => s.drop()));
  }
}
