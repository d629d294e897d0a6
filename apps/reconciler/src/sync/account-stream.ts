// Account transactions for one run: the serviceIds the other streams revealed (service_ids),
// fetched in batches of 100 with listByServiceIds, then those whose re-read time has come (at
// most RECONCILER_REREAD_LIMIT); each batch's rows and its "fetched" mark commit together. A
// batch holds one entity's ids: a sub-merchant's are read with onBehalfOf, and a sub-merchant the
// service will not let the merchant act for has its ids parked while the other entities' are read.
import { isPermissionError } from "@merchantkit/core";
import { sql } from "drizzle-orm";
import { queryRows } from "../db/query-rows";
import { logEvent } from "../log-event";
import { commitWindow } from "../store/commit-window";
import { errorText } from "../store/error-text";
import {
  type FetchReason,
  markServiceIdsFetched,
  parkServiceIds,
  REFUSED_ENTITY_REASON,
  serviceIdsToFetch,
  stampAccountEntity,
} from "../store/service-ids";
import { openStreamRun } from "../store/sync-runs";
import { unreadOf } from "../store/unread";
import { addCounts } from "../store/upsert-batch";
import { fetchIsolatingRefused } from "./isolate-refused";
import { runPool } from "./pool";
import { closeRun, emptySummary, errorFields } from "./stream-summary";
import type { StreamSummary, SyncContext, SyncOptions } from "./sync-types";

const STREAM = "account_transactions";
/** The endpoint's limit of serviceIds per call. */
const SERVICE_ID_BATCH = 100;

/**
 * The service's "you may not act for this merchant" on an onBehalfOf call (40003 on the
 * transaction query, 40009 on Global Account detail): about the sub-merchant, not the ids, so
 * the batch is parked whole. A 403 without a business code (a gateway) is not one: the batch
 * stays due.
 */
function isRefusedEntity(entity: string, error: unknown): boolean {
  return (
    entity !== "" &&
    isPermissionError(error) &&
    (error.respCode === "40003" || error.respCode === "40009")
  );
}

/** One entity's ids in batches of SERVICE_ID_BATCH, entities in the order they first appear. */
function entityBatches(
  serviceIds: readonly string[],
  entities: readonly string[],
): { entity: string; ids: string[] }[] {
  const byEntity = new Map<string, string[]>();
  serviceIds.forEach((id, i) => {
    const entity = entities[i] ?? "";
    byEntity.set(entity, [...(byEntity.get(entity) ?? []), id]);
  });
  const batches: { entity: string; ids: string[] }[] = [];
  for (const [entity, ids] of byEntity)
    for (let i = 0; i < ids.length; i += SERVICE_ID_BATCH)
      batches.push({ entity, ids: ids.slice(i, i + SERVICE_ID_BATCH) });
  return batches;
}

/** Seconds since the oldest serviceId still due was revealed (0 when none is due). */
async function accountLag(ctx: SyncContext): Promise<number> {
  const [row] = await queryRows<{ lag: unknown }>(
    ctx.db,
    sql`SELECT coalesce(extract(epoch FROM now() - min(revealed_at)), 0) AS lag
      FROM service_ids WHERE fetched_at IS NULL OR fetched_at < revealed_at`,
  );
  return Math.max(0, Number(row?.lag ?? 0));
}

/**
 * Fetches every due serviceId, `concurrency` batches at a time, until none is due; then up to
 * `rereadLimit` of those whose re-read time has come (a late posting, a payout's refund credit
 * under an id read before). Ids the service refuses on their own are isolated and parked
 * (isolate-refused.ts); a batch that fails otherwise stays due (retried next run) and ends this
 * run's loop after the round, so a failing call is not made again and again. Never throws.
 */
export async function syncAccountStream(
  ctx: SyncContext,
  opts: SyncOptions,
): Promise<StreamSummary> {
  const { db, config } = ctx;
  const started = Date.now();
  const kind = opts.backfill ? "backfill" : (opts.kind ?? "sync");
  const summary = emptySummary();
  let batchesTotal = 0;
  // A batch with an id the service refuses is split until that id stands alone (parked).
  const readBatch = (entity: string, batch: string[]) =>
    fetchIsolatingRefused(batch, (ids) =>
      ctx.account.transactions.listByServiceIds(ids, {
        concurrency: 1,
        ...(entity === "" ? {} : { onBehalfOf: entity }),
      }),
    );
  const refused = new Set<string>();
  try {
    summary.runId = await openStreamRun(db, STREAM, kind);
    logEvent(ctx, "info", "stream started", { stream: STREAM, kind, runId: summary.runId });
    let stopped = false;
    let rereadLeft = opts.backfill ? 0 : config.rereadLimit;
    summary.serviceIdsReread = 0;
    while (!opts.signal?.aborted && summary.failedWindows === 0) {
      const round = SERVICE_ID_BATCH * config.concurrency;
      let reason: FetchReason = "due";
      let { serviceIds, entities, asOf } = await serviceIdsToFetch(db, round, reason);
      if (serviceIds.length === 0 && rereadLeft > 0) {
        reason = "reread";
        ({ serviceIds, entities, asOf } = await serviceIdsToFetch(
          db,
          Math.min(round, rereadLeft),
          reason,
        ));
        rereadLeft -= serviceIds.length;
      }
      if (serviceIds.length === 0) break;
      const batches = entityBatches(serviceIds, entities);
      batchesTotal += batches.length;
      await runPool(
        batches.map(({ entity, ids: batch }) => async () => {
          if (opts.signal?.aborted) {
            stopped = true;
            return;
          }
          let read: Awaited<ReturnType<typeof readBatch>>;
          try {
            read = await readBatch(entity, batch);
          } catch (error) {
            if (isRefusedEntity(entity, error)) {
              // Parked like a refused id: named in finance_parked_service_ids with the answer,
              // tried again when a ledger entry naming one of them changes.
              const reason = `${REFUSED_ENTITY_REASON} ${entity} (RECONCILER_ENTITIES): ${errorText(error)}`;
              if (!refused.has(entity))
                logEvent(
                  ctx,
                  "warn",
                  "sub-merchant refused by the service; its serviceIds parked",
                  {
                    stream: STREAM,
                    entity,
                    error: errorText(error),
                  },
                );
              refused.add(entity);
              await parkServiceIds(
                db,
                batch.map((serviceId) => ({ serviceId, reason })),
                asOf,
              );
              summary.windows++;
              return;
            }
            summary.failedWindows++;
            logEvent(ctx, "warn", "serviceId batch failed; retried next run", {
              stream: STREAM,
              serviceIds: batch.length,
              error: errorText(error),
            });
            return;
          }
          const { records, fetched, parked } = read;
          summary.pages += read.calls;
          summary.recordsSeen += records.length;
          for (const p of parked)
            logEvent(ctx, "warn", "serviceId refused by the service; parked", {
              stream: STREAM,
              ...p,
            });
          const counts = await db.transaction(async (tx) => {
            const result = await commitWindow(tx, {
              stream: STREAM,
              records: { accountTransactions: records },
            });
            if (entity !== "") await stampAccountEntity(tx, fetched, entity);
            await markServiceIdsFetched(tx, fetched, asOf, config.rereadScheduleMs);
            await parkServiceIds(tx, parked, asOf);
            return result.counts;
          });
          Object.assign(summary, addCounts(summary, counts));
          if (reason === "reread")
            summary.serviceIdsReread = (summary.serviceIdsReread ?? 0) + batch.length;
          summary.windows++;
          opts.onProgress?.({
            stream: STREAM,
            windowsTotal: batchesTotal,
            windowsDone: summary.windows,
            pages: summary.pages,
            recordsSeen: summary.recordsSeen,
            elapsedMs: Date.now() - started,
          });
        }),
        config.concurrency,
      );
    }
    if (summary.failedWindows > 0) {
      summary.outcome = summary.windows === 0 ? "failed" : "partial";
      summary.error = `${summary.failedWindows} serviceId batches failed; retried next run`;
    } else if (stopped || (opts.signal?.aborted && (await accountLag(ctx)) > 0)) {
      summary.outcome = "partial";
      summary.error = "stopped before every due serviceId was fetched";
    }
    if (refused.size > 0) summary.entitiesRefused = [...refused].sort();
    summary.lagSeconds = await accountLag(ctx);
    summary.unread = await unreadOf(db, STREAM);
  } catch (error) {
    summary.outcome = "failed";
    const fields = errorFields(ctx, error);
    summary.error = fields.error;
    logEvent(ctx, "error", "stream failed", { stream: STREAM, ...fields });
  }
  await closeRun(ctx, STREAM, summary, started);
  return summary;
}
