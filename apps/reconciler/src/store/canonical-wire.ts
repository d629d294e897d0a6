// A record's canonical wire text (what `raw` stores) and its sha256 (what `raw_hash` compares).
import { hash } from "node:crypto";
import { isJsonNumber, type JsonNumber } from "@merchantkit/core";

/** The part of a contract codec's wire JSON Schema the writer reads. */
type WireSchema = { [key: string]: unknown };

/** How to write one value: as a bare JSON number when the wire says number, and nested plans. */
interface Plan {
  numeric: boolean;
  properties?: Map<string, Plan>;
  /** The known properties in canonical (sorted) order, each with its `"key":` prefix. */
  sorted?: { key: string; prefix: string; plan: Plan }[];
  items?: Plan;
}

const LEAF: Plan = { numeric: false };
// Decimal strings (amounts) and digit ids without leading zeros: written as bare numbers.
const WIRE_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON must escape exactly these.
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

function isNumericSchema(schema: WireSchema): boolean {
  if (schema.type === "integer" || schema.type === "number") return true;
  const anyOf = schema.anyOf;
  return Array.isArray(anyOf) && anyOf.some((s) => isNumericSchema(s as WireSchema));
}

function objectOf(schema: WireSchema): WireSchema | undefined {
  if (schema.type === "object") return schema;
  const anyOf = schema.anyOf;
  if (!Array.isArray(anyOf)) return undefined;
  return anyOf.map((s) => objectOf(s as WireSchema)).find((s) => s !== undefined);
}

function arrayOf(schema: WireSchema): WireSchema | undefined {
  if (schema.type === "array") return schema;
  const anyOf = schema.anyOf;
  if (!Array.isArray(anyOf)) return undefined;
  return anyOf.map((s) => arrayOf(s as WireSchema)).find((s) => s !== undefined);
}

/** Compiles a codec's wire schema once into the lookups the writer needs per value. */
export function wirePlan(schema: WireSchema): Plan {
  const plan: Plan = { numeric: isNumericSchema(schema) };
  const object = objectOf(schema);
  const properties = object?.properties as Record<string, WireSchema> | undefined;
  if (properties) {
    plan.properties = new Map(Object.entries(properties).map(([k, s]) => [k, wirePlan(s)]));
    plan.sorted = [...plan.properties.keys()].sort().map((key) => ({
      key,
      prefix: `${writeString(key)}:`,
      plan: plan.properties?.get(key) ?? LEAF,
    }));
  }
  const items = arrayOf(schema)?.items as WireSchema | undefined;
  if (items) plan.items = wirePlan(items);
  return plan;
}

function writeString(value: string): string {
  return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
}

/**
 * Writes an app-form value as the wire carries it, canonically: keys sorted at every depth,
 * no spaces, absent (undefined) fields left out, and every string whose wire type is a number
 * (64-bit ids, amounts such as "0.10") written as a bare number with its exact digits. A value
 * the wire types as a number but that is not one (a masked card number) stays a string. Fields
 * the contract does not know pass through with their JSON values (JsonNumbers as their text).
 */
export function canonicalWireText(value: unknown, plan: Plan = LEAF): string {
  switch (typeof value) {
    case "string":
      return plan.numeric && WIRE_NUMBER.test(value) ? value : writeString(value);
    case "number":
      if (!Number.isFinite(value)) throw new TypeError(`${value} is not a JSON number`);
      return String(value);
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      return value.toString();
    case "object": {
      if (value === null) return "null";
      if (isJsonNumber(value)) return (value as JsonNumber).text;
      if (Array.isArray(value)) {
        const item = plan.items ?? LEAF;
        return `[${value.map((v) => (v === undefined ? "null" : canonicalWireText(v, item))).join(",")}]`;
      }
      const record = value as Record<string, unknown>;
      return (plan.sorted && writeKnown(record, plan.sorted)) ?? writeObject(record, plan);
    }
    default:
      throw new TypeError(`a ${typeof value} has no JSON form`);
  }
}

// The fast path for a record of a known type: its fields in the precomputed order, no sort.
// Returns undefined when the record has a field the contract does not know (rare: the service
// added one), which the general path then places in order.
function writeKnown(
  record: Record<string, unknown>,
  sorted: NonNullable<Plan["sorted"]>,
): string | undefined {
  let out = "{";
  let written = 0;
  let present = 0;
  for (const field of sorted) {
    const item = record[field.key];
    if (item === undefined) continue;
    present++;
    if (typeof item === "function") continue;
    out += `${written++ > 0 ? "," : ""}${field.prefix}${canonicalWireText(item, field.plan)}`;
  }
  let own = 0;
  for (const key in record) if (Object.hasOwn(record, key) && record[key] !== undefined) own++;
  return own === present ? `${out}}` : undefined;
}

function writeObject(record: Record<string, unknown>, plan: Plan): string {
  let out = "{";
  for (const key of Object.keys(record).sort()) {
    const field = record[key];
    if (field === undefined || typeof field === "function") continue;
    if (out.length > 1) out += ",";
    out += `${writeString(key)}:${canonicalWireText(field, plan.properties?.get(key) ?? LEAF)}`;
  }
  return `${out}}`;
}

/** sha256 of the canonical text, hex: equal hashes mean an unchanged record. */
export function wireHash(text: string): string {
  return hash("sha256", text, "hex");
}
