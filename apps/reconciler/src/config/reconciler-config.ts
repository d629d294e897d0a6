// The reconciler's validated configuration: where the database is, how to reach the service,
// and how the sync paces itself.
import type { Environment } from "@merchantkit/core";
import type { DueSettings } from "./due-settings";

export interface ReconcilerConfig {
  /** url: a Postgres server; else PGlite in dataDir (the two are never both set). */
  database: { url?: string | undefined; dataDir?: string | undefined };
  /**
   * A read-only copy of that Postgres database (a hot standby) the finance reads use: the
   * report and the break list; the worker never writes there. Unset: they read `database`.
   */
  readDatabaseUrl: string | undefined;
  /** The service: "sandbox", "production" or one origin serving every area (the sandbox). */
  environment: Environment | undefined;
  issuingApiKey: string | undefined;
  accountApiKey: string | undefined;
  /** The payout area's signing key (txn/queryList, for the payouts stream). */
  payoutSecretKey: string | undefined;
  /** The merchant's number: the payout area's merchantNo (and the issuing area's, when set). */
  merchantNo: string | undefined;
  /**
   * The sub-merchants (their merchantNos) the worker reconciles beside the merchant itself, which
   * is always an entity: their account movements are read with onBehalfOf, and ledger rows may
   * name them (docs/ledger-format.md). Empty: the merchant alone.
   */
  entities: string[];
  /** The issuing webhook HMAC secret (Base64 text), for `reconciler webhooks`. */
  webhookSecret: string | undefined;
  /** x-timestamp unit of account calls. */
  timestampUnit: "s" | "ms";
  /** Length of one window of the time-windowed streams. */
  windowMs: number;
  /** How far behind the watermark every run starts again (late and status-changing records). */
  lookbackMs: number;
  /** Where a stream without a watermark starts: a fixed time, or this long before the run. */
  initialStart: { at: Date } | { agoMs: number };
  /** Windows fetched at once per stream. */
  concurrency: number;
  /** Requests per second across every stream of the process (token bucket). */
  requestsPerSecond: number;
  /** Reads of a window whose record count changed under paging, before it is marked drifted. */
  driftRetries: number;
  /** A failed window is retried on later runs until it failed this many times. */
  maxWindowAttempts: number;
  /** Client retries of one request (429, 5xx, resets) before the window counts as failed. */
  maxRetries: number;
  /**
   * When a fetched serviceId is read again, measured from its last change (revealed again, or
   * postings found new or changed): rising steps; after the last one it is settled. Empty: off.
   */
  rereadScheduleMs: number[];
  /** serviceIds read again per run at most (those fetched for the first time are not limited). */
  rereadLimit: number;
  /**
   * Records still P from before a run's range read again per stream and run at most, in turn
   * (card transactions, card operations, payouts); 0: none.
   */
  followLimit: number;
  /** node-cron expression of `reconciler schedule`. */
  cron: string;
  /** The watched folder of ledger CSV drops (taken in by each cycle). */
  ledgerDir: string | undefined;
  /**
   * The merchant's own database, the query returning its ledger rows, how long the query may
   * run or wait for a lock before it is cancelled, and whether it returns every entry of its
   * source (`complete`: an entry it imported and no longer returns is deleted).
   */
  ledgerQuery:
    | { url: string; query: string; queryTimeoutMs: number; complete: boolean }
    | undefined;
  /** Where each cycle writes its report (report.html, statement.csv). */
  reportDir: string | undefined;
  /** When an open break is due (due-settings.ts). */
  due: DueSettings;
}
