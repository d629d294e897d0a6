/**
 * The reconciler's write path: 1,000,000 card transactions (app-form objects generated in
 * process, every field of the record, realistic sizes) written with upsertCardTransactions in
 * batches of 5,000 — one INSERT … ON CONFLICT per batch that also writes the version rows —
 * next to a plain COPY of the same rows into a same-shaped table (the physical limit), then a
 * second pass over the same records, all unchanged. Both paths build the same canonical raw
 * JSON and hash in JS, so the ratio is what the merge and the version rows cost in Postgres.
 *
 * Needs DATABASE_URL (a server; a throwaway database is created on it and dropped). Without it
 * only the PGlite figure is measured. RECONCILER_BENCH_ROWS / RECONCILER_BENCH_PGLITE_ROWS
 * change the row counts (defaults 1,000,000 and 50,000).
 */
import { performance } from "node:perf_hooks";
import { openDatabase } from "../apps/reconciler/src/db/connect";
import { copyField, copyLine, copyRows } from "../apps/reconciler/src/db/copy-rows";
import type { Db } from "../apps/reconciler/src/db/database";
import { queryText } from "../apps/reconciler/src/db/query-rows";
import { createScratchDatabase } from "../apps/reconciler/src/db/scratch-database";
import { canonicalWireText, wireHash } from "../apps/reconciler/src/store/canonical-wire";
import {
  type CardTransactionInput,
  cardTransactionSpec,
  upsertCardTransactions,
} from "../apps/reconciler/src/store/card-transactions";
import { addCounts, emptyCounts } from "../apps/reconciler/src/store/upsert-batch";
import { type CaseResult, printTable } from "./harness";

const BATCH = 5_000;
const TYPES = ["AUTHORIZATION", "CLEARING", "CLEARING", "REVERSAL", "REFUND", "VERIFICATION"];
const STATUSES = ["S", "S", "S", "P", "F"] as const;
const MERCHANTS = [
  ["AMAZON MKTPLACE PMTS", "United States", "US", "WA", "Seattle", "98109", "5942"],
  ["UBER *TRIP", "Netherlands", "NL", "NH", "Amsterdam", "1017", "4121"],
  ['CAFE "LE PETIT"', "France", "FR", "IDF", "Paris", "75002", "5814"],
  ["GOOGLE *CLOUD", "Ireland", "IE", "D", "Dublin", "D04", "5734"],
  ["ATM 7-ELEVEN 0042", "Singapore", "SG", "SG", "Singapore", "018956", "6011"],
];

function amount(i: number, spread: number): string {
  const cents = 300 + ((i * 7919) % spread);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

/** Card transaction i, as the issuing client hands it over (ids and amounts as strings). */
function record(i: number): CardTransactionInput {
  const [name, country, code, state, city, postal, mcc] = MERCHANTS[
    i % MERCHANTS.length
  ] as string[];
  const status = STATUSES[i % STATUSES.length] ?? "S";
  const type = TYPES[i % TYPES.length] ?? "CLEARING";
  const time = 1_780_000_000_000 + i * 2_591; // a month of records, a few ms apart
  const abroad = i % 5 === 1;
  const txn: CardTransactionInput = {
    txnType: type,
    txnStatus: status,
    txnOrderNo: `T${String(100_000_000_000_000 + i)}`,
    cardId: String(1953712585351499776n + BigInt(i % 20_000)),
    authTime: time - 3_600_000,
    authorizationCode: (36 ** 5 + (i % 1_000_000)).toString(36).toUpperCase(),
    authMessageDesc: "Approved",
    transactionAmount: amount(i, 190_000),
    transactionCurrency: abroad ? "EUR" : "USD",
    transactionTime: time,
    cardAmount: amount(i, 190_000),
    cardCurrency: "USD",
    merchantId: `MID${4_000_000 + (i % 50_000)}`,
    merchantName: name,
    merchantCountry: country,
    merchantCountryCode: code,
    merchantStateProvince: state,
    merchantCity: city,
    merchantPostalCode: postal,
    merchantMccCode: mcc,
  };
  if (type !== "AUTHORIZATION") txn.originTxnOrderNo = `T${String(100_000_000_000_000 + i - 1)}`;
  if (type === "REFUND") txn.originTxnOrderNoForRefund = txn.originTxnOrderNo;
  if (status === "S") {
    txn.settleAmount = txn.cardAmount;
    txn.settleCurrency = "USD";
    txn.settleTime = time + 86_400_000;
  }
  if (type === "CLEARING" && abroad) {
    txn.exchangeFee = amount(i, 900);
    txn.exchangeFeeCurrency = "USD";
    txn.crossBorderFee = amount(i + 1, 500);
    txn.crossBorderFeeCurrency = "USD";
  }
  if (mcc === "6011" && type === "CLEARING") {
    txn.transactionFee = "2.00";
    txn.transactionFeeCurrency = "USD";
  }
  return txn;
}

function batchOf(offset: number, rows: number): CardTransactionInput[] {
  return Array.from({ length: Math.min(BATCH, rows - offset) }, (_, i) => record(offset + i));
}

const COPY_COLUMNS = [
  ...cardTransactionSpec.fields.map((f) => f.column),
  "raw",
  "raw_hash",
  "version",
  "source",
];

// The same row as COPY text: the same canonical raw JSON and hash as the upsert builds.
function copyLineOf(txn: CardTransactionInput): string {
  const values = txn as unknown as Record<string, string | number | undefined>;
  const fields = cardTransactionSpec.fields.map((f) => {
    const value = values[f.key];
    if (value === undefined) return "\\N";
    if (f.type === "epoch_ms") return new Date(value as number).toISOString();
    return copyField(String(value));
  });
  const raw = canonicalWireText(txn, cardTransactionSpec.plan);
  return copyLine([...fields, copyField(raw), wireHash(raw), "1", "sync"]);
}

function* copyChunks(rows: number): Generator<string> {
  for (let offset = 0; offset < rows; offset += BATCH)
    yield batchOf(offset, rows).map(copyLineOf).join("");
}

async function upsertAll(db: Db, rows: number) {
  let counts = emptyCounts();
  for (let offset = 0; offset < rows; offset += BATCH)
    counts = addCounts(
      counts,
      await upsertCardTransactions(db, batchOf(offset, rows), { source: "sync" }),
    );
  return counts;
}

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

function result(name: string, rows: number, ms: number, baseMs: number): CaseResult {
  return {
    name,
    opsPerSec: (rows / ms) * 1000,
    nsPerOp: (ms * 1e6) / rows,
    ratio: ms / baseMs,
  };
}

async function measure(db: Db, label: string, rows: number): Promise<void> {
  await queryText(db, "CREATE TABLE card_transactions_copy (LIKE card_transactions INCLUDING ALL)");
  const copy = await timed(() =>
    copyRows(db, {
      table: "card_transactions_copy",
      columns: COPY_COLUMNS,
      lines: copyChunks(rows),
    }),
  );
  const first = await timed(() => upsertAll(db, rows));
  const second = await timed(() => upsertAll(db, rows));
  const [check] = await queryText<{ rows: string; versions: string; copied: string }>(
    db,
    `SELECT (SELECT count(*) FROM card_transactions) AS rows,
      (SELECT count(*) FROM card_transaction_versions) AS versions,
      (SELECT count(*) FROM card_transactions_copy) AS copied`,
  );
  if (first.value.inserted !== rows || second.value.unchanged !== rows)
    throw new Error(
      `unexpected counts: ${JSON.stringify({ first: first.value, second: second.value })}`,
    );
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log(
    `${label}: ${rows.toLocaleString("en-US")} rows in batches of ${BATCH.toLocaleString("en-US")}; ` +
      `COPY ${seconds(copy.ms)}, upsert ${seconds(first.ms)}, unchanged pass ${seconds(second.ms)}; ` +
      `table ${check?.rows} rows, ${check?.versions} versions, copy ${check?.copied} rows`,
  );
  printTable(`${label}: write ${rows.toLocaleString("en-US")} card transactions`, "record", [
    result("COPY into a same-shaped table (baseline)", rows, copy.ms, copy.ms),
    result("upsertCardTransactions, all new (+ versions)", rows, first.ms, copy.ms),
    result("upsertCardTransactions, all unchanged", rows, second.ms, copy.ms),
  ]);
}

function rowsFrom(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < BATCH)
    throw new Error(`${name} must be an integer ≥ ${BATCH}`);
  return value;
}

export async function run(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const scratch = await createScratchDatabase(url, "reconciler_bench");
    try {
      const database = await openDatabase({ url: scratch.url });
      try {
        await measure(database.db, "Postgres server", rowsFrom("RECONCILER_BENCH_ROWS", 1_000_000));
      } finally {
        await database.close();
      }
    } finally {
      await scratch.drop();
    }
  } else {
    console.log(
      'DATABASE_URL is not set: skipping the Postgres server figure (1,000,000 rows); start one with eval "$(bash scripts/start-postgres.sh)". Measuring PGlite only.',
    );
  }
  const pglite = await openDatabase({ dataDir: "memory://" });
  try {
    await measure(
      pglite.db,
      "PGlite (in memory)",
      rowsFrom("RECONCILER_BENCH_PGLITE_ROWS", 50_000),
    );
  } finally {
    await pglite.close();
  }
}
