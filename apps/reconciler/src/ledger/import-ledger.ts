// importLedger: a checked ledger file (or a ledger source's checked rows) into ledger_entries,
// all or nothing, idempotent by entry_id: COPY into a staging table, then one INSERT … ON
// CONFLICT merge.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { advisoryKey } from "../db/advisory-key";
import { backendOf } from "../db/backend";
import { copyField, copyLine, copyRows } from "../db/copy-rows";
import type { Db } from "../db/database";
import { queryRows } from "../db/query-rows";
import { withSessionLock } from "../db/session-lock";
import { rememberServiceIds } from "../store/service-ids";
import { diffLines, forgetLines, onFileLines, rememberLines, wholeLines } from "./changed-lines";
import { LEDGER_COLUMNS, type LedgerEntities, type LedgerEntry } from "./ledger-row";
import { type LedgerRowError, parseLedger } from "./parse-ledger";

export interface LedgerImportResult {
  /** Rows in the file. */
  rows: number;
  inserted: number;
  /** Entries whose stored values differed and were replaced. */
  updated: number;
  /** Entries already stored exactly so: nothing written. */
  unchanged: number;
  /** Entries of a complete source it no longer holds, deleted (ImportOptions.complete). */
  deleted?: number;
}

/** The file has bad rows: nothing was imported. `errors` holds every bad row (line, reason). */
export class LedgerImportError extends Error {
  override readonly name = "LedgerImportError";
  constructor(readonly errors: readonly LedgerRowError[]) {
    const shown = errors.slice(0, 20).map((e) => `  line ${e.line}: ${e.reason}`);
    const more = errors.length > 20 ? [`  … and ${errors.length - 20} more`] : [];
    super(
      `ledger import rejected: ${errors.length} bad row(s), nothing imported\n${[...shown, ...more].join("\n")}`,
    );
  }
}

const STAGING_COLUMNS = ["import_id", "line_no", ...LEDGER_COLUMNS] as const;

/**
 * Checks the whole text first (any bad row → LedgerImportError, nothing written), then imports
 * its entries with importLedgerEntries.
 */
export async function importLedger(
  db: Db,
  text: string,
  opts: ImportOptions = {},
): Promise<LedgerImportResult> {
  const { sourceFile } = opts;
  // A complete source deletes what it no longer holds: only a whole read can say what that is.
  if (sourceFile === undefined || opts.complete) return importWhole(db, text, opts);
  const diff = await diffLines(db, sourceFile, text);
  if (diff.kind === "whole") return importWhole(db, text, opts);
  const parsed = onFileLines(parseLedger(diff.text, opts.entities), diff);
  if (parsed.errors.length > 0) throw new LedgerImportError(parsed.errors);
  // The lines read; the kept ones' entry ids come with the diff (keptIds).
  const entryIdOfLine = new Map(parsed.entries.map(({ line, entry }) => [line, entry.entryId]));
  const result = await importLedgerEntries(db, parsed.entries, {
    ...opts,
    alsoInTransaction: async (tx) => {
      await rememberLines(tx, sourceFile, { ...diff, entryIdOfLine });
      await opts.alsoInTransaction?.(tx, diff.rows);
    },
  });
  return {
    ...result,
    rows: diff.rows,
    unchanged: diff.rows - result.inserted - result.updated,
  };
}

/** Reads every line of the text, and keeps its lines for the file's next import. */
async function importWhole(db: Db, text: string, opts: ImportOptions) {
  const parsed = parseLedger(text, opts.entities);
  if (parsed.errors.length > 0) throw new LedgerImportError(parsed.errors);
  const { sourceFile } = opts;
  const whole = sourceFile === undefined ? undefined : wholeLines(text);
  return importLedgerEntries(db, parsed.entries, {
    ...opts,
    alsoInTransaction: async (tx, rows) => {
      if (sourceFile !== undefined) {
        const entryIdOfLine = new Map(parsed.entries.map((e) => [e.line, e.entry.entryId]));
        // A text whose records span lines keeps nothing: its next import reads it whole too.
        if (whole) await rememberLines(tx, sourceFile, { ...whole, entryIdOfLine });
        else await forgetLines(tx, sourceFile);
      }
      await opts.alsoInTransaction?.(tx, rows);
    },
  });
}

interface ImportOptions {
  /** Recorded on each entry as where it last came from. */
  sourceFile?: string;
  /**
   * The entries are every entry of `sourceFile`: one recorded as from there and not among them
   * is deleted, in the same transaction (its breaks then go with the next match).
   */
  complete?: boolean;
  /** The entities a row may name (RECONCILER_ENTITIES); unset: the merchant alone. */
  entities?: LedgerEntities;
  /** Runs inside the merge's transaction; `rows`: the data rows of the text imported. */
  alsoInTransaction?: (tx: Db, rows: number) => Promise<void>;
}

/**
 * Copies checked entries into ledger_staging and merges them into ledger_entries in one
 * transaction: a new entry_id is inserted, a changed one replaced, an identical one left alone.
 * Account entries' provider_ref (a serviceId) is queued for the account-transaction sync; a
 * known one is due for a read again when an entry naming it is new or changed.
 * Imports run one at a time (an advisory lock held on a connection of their own for the whole
 * import), so whatever staging holds when one starts was left by an import that died (kill -9,
 * a lost connection) and is cleared first. `db` must be the top-level database (COPY runs on a
 * connection of its own).
 */
export async function importLedgerEntries(
  db: Db,
  entries: readonly { line: number; entry: LedgerEntry }[],
  opts: ImportOptions = {},
): Promise<LedgerImportResult> {
  const rows = entries.length;
  const counts = await withSessionLock(
    backendOf(db),
    advisoryKey("ledger-import"),
    async (query) => {
      await query("delete from ledger_staging", []);
      return stageAndMerge(db, entries, opts);
    },
  );
  return { rows, ...counts };
}

async function stageAndMerge(
  db: Db,
  entries: readonly { line: number; entry: LedgerEntry }[],
  opts: ImportOptions,
): Promise<Omit<LedgerImportResult, "rows">> {
  const importId = randomUUID();
  let failure: { error: unknown } | undefined;
  try {
    if (entries.length > 0)
      await copyRows(db, {
        table: "ledger_staging",
        columns: STAGING_COLUMNS,
        lines: (function* () {
          for (const { line, entry } of entries)
            yield copyLine([
              importId,
              String(line),
              copyField(entry.entryId),
              entry.kind,
              copyField(entry.providerRef),
              entry.amount,
              entry.currency,
              entry.bookedAt,
              copyField(entry.feeType),
              copyField(entry.cardId),
              copyField(entry.description),
              copyField(entry.entity ?? ""),
            ]);
        })(),
      });
    // Each entity's serviceIds: a sub-merchant's are read on its behalf.
    const serviceIds = new Map<string, Set<string>>();
    for (const { entry } of entries)
      if (entry.kind === "account") {
        const entity = entry.entity ?? "";
        serviceIds.set(entity, (serviceIds.get(entity) ?? new Set()).add(entry.providerRef));
      }
    return await db.transaction(async (tx) => {
      const [counts] = await queryRows<{ inserted: string; updated: string }>(
        tx,
        sql`WITH merged AS (
          INSERT INTO ledger_entries AS t (entry_id, kind, provider_ref, amount, currency, booked_at,
            fee_type, card_id, description, source_file, source_line, entity)
          SELECT entry_id, kind, provider_ref, amount, currency, booked_at, fee_type, card_id,
            description, ${opts.sourceFile ?? null}::text, line_no, entity
          FROM ledger_staging WHERE import_id = ${importId}
          ON CONFLICT (entry_id) DO UPDATE SET kind = excluded.kind,
            provider_ref = excluded.provider_ref, amount = excluded.amount,
            currency = excluded.currency, booked_at = excluded.booked_at,
            fee_type = excluded.fee_type, card_id = excluded.card_id,
            description = excluded.description, entity = excluded.entity,
            source_file = excluded.source_file,
            source_line = excluded.source_line, updated_at = now()
          WHERE (t.kind, t.provider_ref, t.amount, t.currency, t.booked_at, t.fee_type, t.card_id,
              t.description, t.entity)
            IS DISTINCT FROM (excluded.kind, excluded.provider_ref, excluded.amount,
              excluded.currency, excluded.booked_at, excluded.fee_type, excluded.card_id,
              excluded.description, excluded.entity)
          RETURNING (xmax = 0) AS fresh, kind, provider_ref
        ), revealed AS (
          -- A new or corrected entry is the merchant saying what it booked under that serviceId:
          -- the provider may have posted more since the id was last read (a settled id is read
          -- again only when revealed), and a parked one may be right now. Only the entries this
          -- merge wrote: an unchanged file reveals nothing. Ids not known yet are added below.
          UPDATE service_ids s SET revealed_at = now()
          FROM merged m
          WHERE m.kind = 'account' AND s.service_id = m.provider_ref
          RETURNING 1
        )
        SELECT count(*) FILTER (WHERE fresh) AS inserted, count(*) FILTER (WHERE NOT fresh) AS updated,
          (SELECT count(*) FROM revealed) AS revealed
        FROM merged`,
      );
      const deleted =
        opts.complete && opts.sourceFile !== undefined
          ? await deleteMissing(tx, opts.sourceFile, importId)
          : undefined;
      for (const [entity, ids] of serviceIds)
        await rememberServiceIds(tx, [...ids], "ledger", { entity });
      if (opts.alsoInTransaction) await opts.alsoInTransaction(tx, entries.length);
      const inserted = Number(counts?.inserted ?? 0);
      const updated = Number(counts?.updated ?? 0);
      const unchanged = entries.length - inserted - updated;
      return { inserted, updated, unchanged, ...(deleted === undefined ? {} : { deleted }) };
    });
  } catch (error) {
    failure = { error };
    throw error;
  } finally {
    await queryRows(db, sql`DELETE FROM ledger_staging WHERE import_id = ${importId}`).catch(
      (cleanup: unknown) => {
        // After a failed import the cleanup mostly fails for the same reason (the connection
        // gone): the import's own error says what happened, and the rows left staged are
        // cleared by the next import (importLedgerEntries).
        if (failure === undefined) throw cleanup;
        if (typeof failure.error === "object" && failure.error !== null)
          cleanupFailures.set(failure.error, cleanup);
      },
    );
  }
}

const cleanupFailures = new WeakMap<object, unknown>();

/**
 * The error that clearing the staged rows raised after the import failed with `error`, if it
 * did: kept beside the import's error, which it never replaces.
 */
export function stagingCleanupFailureOf(error: unknown): unknown {
  return typeof error === "object" && error !== null ? cleanupFailures.get(error) : undefined;
}

/**
 * Deletes the entries last imported from `sourceFile` that the import `importId` (staged) no
 * longer holds; answers how many. Only that source's: an entry another source (a file) wrote
 * last is never deleted by this one.
 */
async function deleteMissing(tx: Db, sourceFile: string, importId: string): Promise<number> {
  const [row] = await queryRows<{ deleted: string }>(
    tx,
    sql`WITH gone AS (
      DELETE FROM ledger_entries e WHERE e.source_file = ${sourceFile}
        AND NOT EXISTS (SELECT 1 FROM ledger_staging s
          WHERE s.import_id = ${importId} AND s.entry_id = e.entry_id)
      RETURNING 1)
    SELECT count(*) AS deleted FROM gone`,
  );
  return Number(row?.deleted ?? 0);
}
