// `reconciler status`: per stream the watermark and lag, the last run and how it ended, and
// the windows and serviceIds waiting for a retry. A table on a TTY, JSON lines otherwise.
import { sql } from "drizzle-orm";
import type { Db } from "../../db/database";
import { queryRows } from "../../db/query-rows";
import { EXIT } from "../../exit-codes";
import { pendingCount } from "../../store/pending-follow";
import { refusedEntities } from "../../store/service-ids";
import { lastRuns } from "../../store/sync-runs";
import { unreadWindows } from "../../store/sync-windows";
import { type Unread, unreadOf } from "../../store/unread";
import { listWatermarks } from "../../store/watermarks";
import { STREAM_NAMES } from "../../sync/sync-types";
import { WINDOWED_SOURCES } from "../../sync/windowed-sources";
import { table, terminalText } from "../../text-table";
import type { Command } from "../command";
import { commandFlags, runOnDatabase } from "../command-support";

const usage = "reconciler status";

interface StreamStatus {
  stream: string;
  watermark: string | null;
  lagSeconds: number | null;
  lastRun: {
    id: string;
    kind: string;
    startedAt: string;
    finishedAt: string | null;
    outcome: string | null;
    windows: number;
    recordsSeen: number;
    inserted: number;
    updated: number;
    error: string | null;
  } | null;
  /** Windows (failed or drifted) waiting to be read again: retried by every run until read. */
  windowsToRetry: number;
  /**
   * Windowed streams: records still P in the store and the oldest one's time. Those from before
   * a run's range are read again by its follow-up, in turn (RECONCILER_FOLLOW_LIMIT a run).
   */
  stillPending?: { count: number; oldest: string | null };
  /** Account transactions: serviceIds waiting for a fetch. */
  serviceIdsDue?: number;
  /**
   * Account transactions: serviceIds the service refused on their own, parked until the ledger
   * entry naming them changes (finance_parked_service_ids lists them with the answer).
   */
  serviceIdsParked?: number;
  /**
   * Account transactions: the sub-merchants the service would not let the merchant act for, with
   * how many of their serviceIds are parked for it (counted in `unread` too: nothing was read).
   */
  entitiesRefused?: { entity: string; serviceIds: number }[];
  /**
   * Account transactions: serviceIds inside their re-read period (read again on the schedule,
   * RECONCILER_REREAD), how many of them are past their re-read time, the oldest such time, and
   * the oldest last read among them (finance_service_ids lists each).
   */
  rereads?: {
    inPeriod: number;
    due: number;
    oldestDue: string | null;
    oldestLastRead: string | null;
  };
  /**
   * What the stream has not read (windows to read again; for account transactions the due
   * serviceIds) and since when: the tables miss those records. Nonzero makes `status` exit 3.
   */
  unread: Unread;
}

const isoOrNull = (value: unknown) =>
  value == null ? null : new Date(value as string | Date).toISOString();

async function readRereads(db: Db): Promise<NonNullable<StreamStatus["rereads"]>> {
  const [row] = await queryRows<Record<string, unknown>>(
    db,
    sql`SELECT count(*) AS in_period, count(*) FILTER (WHERE reread_at <= now()) AS due,
        min(reread_at) FILTER (WHERE reread_at <= now()) AS oldest_due,
        min(fetched_at) AS oldest_last_read
      FROM service_ids WHERE reread_at IS NOT NULL`,
  );
  return {
    inPeriod: Number(row?.in_period ?? 0),
    due: Number(row?.due ?? 0),
    oldestDue: isoOrNull(row?.oldest_due),
    oldestLastRead: isoOrNull(row?.oldest_last_read),
  };
}

/** What `status` shows, as data (also used by tests and the other commands). */
export async function readStatus(db: Db): Promise<StreamStatus[]> {
  const watermarks = new Map((await listWatermarks(db)).map((w) => [w.stream, w.watermark]));
  const now = Date.now();
  const out: StreamStatus[] = [];
  for (const stream of STREAM_NAMES) {
    const [run] = await lastRuns(db, { stream, limit: 1 });
    const watermark = watermarks.get(stream) ?? null;
    const status: StreamStatus = {
      stream,
      watermark: watermark?.toISOString() ?? null,
      lagSeconds: watermark ? Math.round((now - watermark.getTime()) / 1000) : null,
      lastRun: run
        ? {
            id: run.id,
            kind: run.kind,
            startedAt: run.startedAt.toISOString(),
            finishedAt: run.finishedAt?.toISOString() ?? null,
            outcome: run.outcome,
            windows: run.windows,
            recordsSeen: run.recordsSeen,
            inserted: run.inserted,
            updated: run.updated,
            error: run.error,
          }
        : null,
      windowsToRetry: (await unreadWindows(db, stream)).windows,
      unread: await unreadOf(db, stream),
    };
    const pending =
      stream === "account_transactions" ? undefined : WINDOWED_SOURCES[stream].pending;
    if (pending) status.stillPending = await pendingCount(db, pending.table);
    if (stream === "account_transactions") {
      const [due] = await queryRows<{ n: unknown; lag: unknown }>(
        db,
        sql`SELECT count(*) AS n, extract(epoch FROM now() - min(revealed_at)) AS lag
          FROM service_ids WHERE fetched_at IS NULL OR fetched_at < revealed_at`,
      );
      status.serviceIdsDue = Number(due?.n ?? 0);
      status.lagSeconds = due?.lag == null ? 0 : Math.round(Number(due.lag));
      const [parked] = await queryRows<{ n: unknown }>(
        db,
        sql`SELECT count(*) AS n FROM service_ids WHERE parked_reason IS NOT NULL`,
      );
      status.serviceIdsParked = Number(parked?.n ?? 0);
      status.entitiesRefused = await refusedEntities(db);
      status.rereads = await readRereads(db);
    }
    out.push(status);
  }
  return out;
}

export const statusCommand: Command = {
  name: "status",
  summary:
    "watermarks, lag, last runs and what is unread since when; exits 3 when any stream has unread data (a health check)",
  usage,
  run(args, io) {
    return runOnDatabase(
      args,
      io,
      usage,
      () => commandFlags(args, {}),
      async ({ db }) => {
        const statuses = await readStatus(db);
        const code = statuses.some((s) => s.unread.count > 0) ? EXIT.unread : EXIT.ok;
        if (!io.isTty) {
          for (const s of statuses) io.out(JSON.stringify(s));
          return code;
        }
        io.out(
          table(
            [
              "stream",
              "watermark",
              "lag",
              "last run",
              "outcome",
              "records",
              "new",
              "updated",
              "unread",
              "since",
            ],
            statuses.map((s) => [
              s.stream,
              s.watermark ?? "-",
              s.lagSeconds == null ? "-" : `${s.lagSeconds}s`,
              s.lastRun ? `${s.lastRun.kind} ${s.lastRun.startedAt}` : "-",
              s.lastRun
                ? (s.lastRun.outcome ?? (s.lastRun.finishedAt ? "?" : "running/crashed"))
                : "-",
              String(s.lastRun?.recordsSeen ?? "-"),
              String(s.lastRun?.inserted ?? "-"),
              String(s.lastRun?.updated ?? "-"),
              s.serviceIdsDue === undefined
                ? `${s.unread.count} windows`
                : `${s.unread.count} ids due`,
              s.unread.since ?? "-",
            ]),
          ),
        );
        for (const s of statuses)
          if (s.lastRun?.error) io.out(terminalText(`${s.stream}: ${s.lastRun.error}`));
        const rereads = statuses.find((s) => s.rereads)?.rereads;
        if (rereads?.inPeriod)
          io.out(
            `${rereads.inPeriod} serviceId(s) inside their re-read period (oldest last read ${rereads.oldestLastRead}); ${rereads.due} past their re-read time${rereads.oldestDue ? ` since ${rereads.oldestDue}` : ""}: see finance_service_ids`,
          );
        for (const s of statuses)
          if (s.stillPending?.count)
            io.out(
              `${s.stream}: ${s.stillPending.count} still P (oldest ${s.stillPending.oldest}); read again every run until final, in turn past RECONCILER_FOLLOW_LIMIT`,
            );
        const parked = statuses.find((s) => s.serviceIdsParked)?.serviceIdsParked;
        if (parked)
          io.out(
            `${parked} serviceId(s) refused by the service and parked: see finance_parked_service_ids; correcting the ledger entry retries them`,
          );
        for (const r of statuses.find((s) => s.entitiesRefused)?.entitiesRefused ?? [])
          io.out(
            terminalText(
              `sub-merchant ${r.entity} refused by the service: ${r.serviceIds} serviceId(s) parked and unread until its grant is restored and an entry naming them changes`,
            ),
          );
        if (code !== EXIT.ok)
          io.out(
            "unread data: the tables miss records until a run reads them (`reconciler windows` lists the windows)",
          );
        return code;
      },
    );
  },
};
