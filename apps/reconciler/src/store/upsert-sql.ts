// Generates the single INSERT … ON CONFLICT statement that writes a batch and its versions.
import type { FieldSpec, FieldType, UpsertSpec } from "./upsert-spec";

/** The statement split around its two parameters: the batch (JSON text) and the source. */
export interface UpsertStatement {
  beforeBatch: string;
  beforeSource: string;
  rest: string;
  /** The spec's afterUpsert split around its parameter, the changed keys as a JSON array. */
  after?: { beforeKeys: string; rest: string };
}

const INPUT_TYPE: Record<FieldType, string> = {
  text: "text",
  numeric: "numeric",
  epoch_ms: "bigint",
  time: "timestamptz",
};

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

function columnValue(field: FieldSpec): string {
  // Exact: the interval product is computed in microseconds, below 2^53 for any real date.
  if (field.type === "epoch_ms")
    return `'epoch'::timestamptz + ${quote(field.key)} * interval '1 millisecond'`;
  return quote(field.key);
}

function recordDefinition(fields: FieldSpec[]): string {
  return fields.map((f) => `${quote(f.key)} ${INPUT_TYPE[f.type]}`).join(", ");
}

/**
 * The batch arrives as ONE jsonb array of `{ "h": raw_hash, "r": record, "d": derived }`.
 * `input` spreads it into typed columns with jsonb_to_record; `changed` inserts new keys and
 * updates stored ones only when the hash differs and the update is not a final status going
 * back to P (checked before the insert, and again in ON CONFLICT for a row another
 * transaction wrote meanwhile); `versions` appends a version row for every inserted or changed record. The final
 * SELECT counts what happened; it reads the table as it was before the statement (all parts of
 * one statement share its snapshot), which is what the downgrade count needs.
 */
export function buildUpsertStatement<R>(spec: UpsertSpec<R>): UpsertStatement {
  const own = spec.fields.filter((f) => !f.derived);
  const derived = spec.fields.filter((f) => f.derived);
  const columns = spec.fields.map((f) => quote(f.column));
  const status = spec.status;
  const updates = spec.fields
    .filter((f) => f.column !== spec.keyColumn)
    .map((f) => {
      const set = spec.onUpdate?.[f.column] ?? `excluded.${quote(f.column)}`;
      return `${quote(f.column)} = ${set}`;
    });
  const guard = status
    ? `\n      AND NOT (t.${quote(status.column)} <> 'P' AND excluded.${quote(status.column)} = 'P')`
    : "";
  // Unchanged rows and downgrades are left out before the insert, so they are only read: an
  // ON CONFLICT that ends in a false WHERE would still lock (and so write) every such row.
  const downgrade = status
    ? ` OR (s.${quote(status.column)} <> 'P' AND i.${quote(status.field)} = 'P')`
    : "";
  const statusReturn = status ? `, t.${quote(status.column)} AS status` : "";
  const statusVersionColumn = status ? `, ${quote(status.column)}` : "";
  const statusVersionValue = status ? ", status" : "";
  const skipped = status
    ? `(SELECT count(*) FROM input i JOIN ${quote(spec.table)} s ON s.${quote(spec.keyColumn)} = i.${quote(spec.keyField)}
     WHERE i.${quote(status.field)} = 'P' AND s.${quote(status.column)} <> 'P')`
    : "0";
  const derivedJoin = derived.length
    ? `\n  CROSS JOIN LATERAL jsonb_to_record(e -> 'd') AS d(${recordDefinition(derived)})`
    : "";
  const extra = spec.revealsServiceIds
    ? `,
service_ids_revealed AS (
  INSERT INTO service_ids (service_id, source, first_seen_at, revealed_at)
  SELECT row_key, '${spec.revealsServiceIds}', now(), now() FROM changed
  ON CONFLICT (service_id) DO UPDATE SET revealed_at = excluded.revealed_at
)`
    : "";
  // The keys afterUpsert works on, as JSON text (read the same way by both drivers).
  const changedKeys = spec.afterUpsert
    ? `,\n  (SELECT coalesce(jsonb_agg(row_key), '[]'::jsonb)::text FROM changed) AS changed_keys`
    : "";

  const beforeBatch = `WITH input AS (
  SELECT e ->> 'h' AS raw_hash, e -> 'r' AS raw, r.*${derived.length ? ", d.*" : ""}
  FROM jsonb_array_elements(`;
  const beforeSource = `::jsonb) AS e
  CROSS JOIN LATERAL jsonb_to_record(e -> 'r') AS r(${recordDefinition(own)})${derivedJoin}
),
changed AS (
  INSERT INTO ${quote(spec.table)} AS t (${columns.join(", ")}, raw, raw_hash, version, first_seen_at, updated_at, source)
  SELECT ${spec.fields.map(columnValue).join(", ")}, raw, raw_hash, 1, now(), now(), `;
  const rest = `::text
  FROM input i
  WHERE NOT EXISTS (
    SELECT 1 FROM ${quote(spec.table)} s
    WHERE s.${quote(spec.keyColumn)} = i.${quote(spec.keyField)}
      AND (s.raw_hash = i.raw_hash${downgrade})
  )
  ON CONFLICT (${quote(spec.keyColumn)}) DO UPDATE SET
    ${updates.join(",\n    ")},
    raw = excluded.raw, raw_hash = excluded.raw_hash, version = t.version + 1,
    updated_at = excluded.updated_at, source = excluded.source
    WHERE t.raw_hash <> excluded.raw_hash${guard}
  RETURNING t.${quote(spec.keyColumn)} AS row_key, t.version, t.raw, t.raw_hash, t.updated_at, t.source${statusReturn}
),
versions AS (
  INSERT INTO ${quote(spec.versionsTable)} (${quote(spec.keyColumn)}, version, raw, raw_hash${statusVersionColumn}, recorded_at, source)
  SELECT row_key, version, raw, raw_hash${statusVersionValue}, updated_at, source FROM changed
)${extra}
SELECT
  (SELECT count(*) FROM changed WHERE version = 1) AS inserted,
  (SELECT count(*) FROM changed WHERE version > 1) AS updated,
  ${skipped} AS skipped${changedKeys}`;
  const after = spec.afterUpsert
    ? {
        beforeKeys: "WITH keys AS (SELECT jsonb_array_elements_text(",
        rest: `::jsonb) AS key)\n${spec.afterUpsert}`,
      }
    : undefined;
  return { beforeBatch, beforeSource, rest, after };
}

/** The statement as text with $1 (batch) and $2 (source), for docs and EXPLAIN. */
export function upsertSqlText<R>(spec: UpsertSpec<R>): string {
  const s = buildUpsertStatement(spec);
  return `${s.beforeBatch}$1${s.beforeSource}$2${s.rest}`;
}
