// Test support: a sandbox with generated issuing data (clock frozen behind real time, so every
// record is in the past for the sync), a SyncContext on it, and both sides' records as
// key → raw_hash maps to compare record for record.
import { parseJson, stringifyJson } from "@merchantkit/core";
import { type RunningSandbox, type StartSandboxOptions, startSandbox } from "@merchantkit/sandbox";
import { afterAll, beforeAll } from "vitest";
import { loadConfig } from "../config/load-config";
import type { DatabaseKind, Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { accountTransactionSpec } from "../store/account-transactions";
import { canonicalWireText, wireHash } from "../store/canonical-wire";
import { cardTransactionSpec } from "../store/card-transactions";
import { operateRecordSpec } from "../store/operate-records";
import type { UpsertSpec } from "../store/upsert-spec";
import { createSyncContext } from "../sync/sync-context";
import type { SyncContext } from "../sync/sync-types";
import { openTestDatabase, type TestDatabase } from "./databases";

export const SANDBOX_KEYS = {
  ISSUING_API_KEY: "sandbox-issuing-api-key",
  ACCOUNT_API_KEY: "sandbox-account-api-key",
  PAYOUT_SECRET_KEY: "sandbox-secret-key",
  MERCHANT_NO: "M1000001",
} as const;

export interface GeneratedSandbox {
  sandbox: RunningSandbox;
  /** The sandbox's frozen now and the generated period's start. */
  now: number;
  start: number;
}

/** Starts a sandbox frozen `behindMs` before real time and generates data into it. */
export async function startGeneratedSandbox(
  opts: {
    seed?: number;
    cards?: number;
    cardTransactions?: number;
    days?: number;
    behindMs?: number;
  } & StartSandboxOptions = {},
): Promise<GeneratedSandbox> {
  const {
    seed = 8,
    cards = 20,
    cardTransactions = 3_000,
    days = 10,
    behindMs = 2 * 3_600_000,
    ...sandboxOpts
  } = opts;
  const sandbox = await startSandbox({
    webhookRetryIntervalMs: 20,
    // The virtual clock is frozen behind real time; account calls carry real-time x-timestamps.
    timestampSkewMs: 366 * 86_400_000,
    ...sandboxOpts,
  });
  const now = Math.floor((Date.now() - behindMs) / 1000) * 1000;
  await sandbox.admin.freezeClock(now);
  await postSandboxIssuing(sandbox, "/generate", { seed, cards, cardTransactions, days });
  return { sandbox, now, start: now - days * 86_400_000 };
}

/** The webhook secret the tests' sandboxes sign pushes with and their receivers check. */
export const TEST_WEBHOOK_SECRET = Buffer.from("reconciler-test-webhook-secret-0").toString(
  "base64",
);

/** POSTs to the sandbox's issuing admin path (`/generate`, `/transactions`…); its JSON answer. */
export async function postSandboxIssuing(
  sandbox: RunningSandbox,
  path: string,
  body: unknown,
): Promise<Record<string, unknown>> {
  const res = await fetch(`${sandbox.url}/__sandbox/issuing${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
  return res.json() as Promise<Record<string, unknown>>;
}

type GenerateOptions = Parameters<typeof startGeneratedSandbox>[0];

/**
 * A test file's database of one backend and a generated sandbox, opened side by side before
 * its tests and closed after them; `opened` receives both (the file keeps them in its own
 * variables, as with useTestDatabase).
 */
export function useSandboxDatabase(
  kind: DatabaseKind,
  generate: GenerateOptions,
  opened: (database: TestDatabase, generated: GeneratedSandbox) => void,
): void {
  let database: TestDatabase | undefined;
  let generated: GeneratedSandbox | undefined;
  beforeAll(async () => {
    [database, generated] = await Promise.all([
      openTestDatabase(kind),
      startGeneratedSandbox(generate),
    ]);
    opened(database, generated);
  }, 120_000);
  afterAll(async () => {
    await generated?.sandbox.close();
    await database?.dispose();
  });
}

/** Environment for loadConfig pointing at the sandbox (tests add their own settings). */
export function sandboxEnv(
  generated: GeneratedSandbox,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    MERCHANTKIT_ENVIRONMENT: generated.sandbox.url,
    ...SANDBOX_KEYS,
    RECONCILER_START: new Date(generated.start - 86_400_000).toISOString(),
    // Wide enough that every run re-reads the whole generated period (status changes anywhere).
    RECONCILER_LOOKBACK: "40d",
    RECONCILER_RPS: "5000",
    ...extra,
  };
}

/** A SyncContext on the sandbox with short retry backoff; log lines are collected. */
export function sandboxSyncContext(
  db: Db,
  generated: GeneratedSandbox,
  extra: Record<string, string> = {},
): SyncContext & { lines: string[] } {
  const lines: string[] = [];
  const config = loadConfig(sandboxEnv(generated, extra));
  const ctx = createSyncContext(config, db, {
    log: (line) => lines.push(line),
    retryDelay: { baseDelayMs: 5, maxDelayMs: 20 },
  });
  return { ...ctx, lines };
}

export interface RecordHashes {
  cardTransactions: Record<string, string>;
  operateRecords: Record<string, string>;
  accountTransactions: Record<string, string>;
}

function hashes<R extends object>(spec: UpsertSpec<R>, records: readonly R[]) {
  const out: Record<string, string> = {};
  for (const record of records)
    out[String(record[spec.keyField])] = wireHash(canonicalWireText(record, spec.plan));
  return out;
}

/**
 * The sandbox's ground truth: every card transaction and operation record, and the account
 * transactions of the card operations (the serviceIds the sync can know; top-ups are revealed
 * by nothing in the issuing streams).
 */
export async function truthOf(sandbox: RunningSandbox): Promise<RecordHashes> {
  const state = await sandbox.admin.state();
  const issuing = state.areas.issuing as {
    cardTransactions: never[];
    operateRecords: { operateRecordId: string }[];
  };
  const ops = new Set(issuing.operateRecords.map((r) => r.operateRecordId));
  // Through the wire form once, as the account endpoint answers it.
  const postings = parseJson(stringifyJson(state.ledger.transactions)) as {
    serviceId: string;
  }[];
  return {
    cardTransactions: hashes(cardTransactionSpec, issuing.cardTransactions),
    operateRecords: hashes(operateRecordSpec, issuing.operateRecords as never[]),
    accountTransactions: hashes(
      accountTransactionSpec,
      postings.filter((p) => ops.has(p.serviceId)) as never[],
    ),
  };
}

async function tableHashes(db: Db, table: string, key: string) {
  const rows = await queryText<{ k: string; h: string }>(
    db,
    `SELECT ${key} AS k, raw_hash AS h FROM ${table}`,
  );
  return Object.fromEntries(rows.map((r) => [r.k, r.h]));
}

/** What the database holds, in the same form as truthOf. */
export async function storedOf(db: Db): Promise<RecordHashes> {
  return {
    cardTransactions: await tableHashes(db, "card_transactions", "txn_order_no"),
    operateRecords: await tableHashes(db, "operate_records", "operate_record_id"),
    accountTransactions: await tableHashes(db, "account_transactions", "acnt_txn_id"),
  };
}
