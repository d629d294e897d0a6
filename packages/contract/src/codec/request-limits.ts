/**
 * Limits every request is held to, whatever its endpoint: no string longer than its documented
 * maximum (or, where the service documents none, REQUEST_TEXT_MAX_LENGTH), and every 64-bit id
 * a whole number the service's 64-bit "Long" can hold, written in canonical form. The service
 * cannot take more (issue: 10,000-character strings and ids past 2^64 went out), so the client
 * refuses it before sending and the sandbox refuses it on arrival, naming the field.
 *
 * The rules are read from the request codec's wire schema, so a field added later is covered
 * too: a string's limit is its `maxLength`, an id is a field of `format: "int64"` (bare-number
 * ids and the string ids marked so). The client checks the wire value its request encodes to,
 * the sandbox the value it decoded; JSON-text fields are checked inside, string by string.
 */
import { isJsonNumber, parseJson } from "@merchantkit/core";
import * as v from "valibot";
import { type Codec, codec, decodePath, encodePath, type WireSchema } from "./codec";
import { type FastPath, isPlainObject, MISS } from "./fast-path";

/** Longest string a request may carry in a field whose limit the service does not document. */
export const REQUEST_TEXT_MAX_LENGTH = 256;

/** The largest id the service's 64-bit signed "Long" holds. */
export const ID_MAX = "9223372036854775807";

// Digits without leading zeros: the only form of an integer the wire carries.
const CANONICAL = /^(?:0|[1-9]\d*)$/;

/** True for an id of canonical digits within the service's 64-bit range. */
export function isId64(text: string): boolean {
  if (!CANONICAL.test(text)) return false;
  return text.length < ID_MAX.length || (text.length === ID_MAX.length && text <= ID_MAX);
}

const ID_RULE = `must be a 64-bit id: digits without leading zeros, at most ${ID_MAX}`;

interface Problem {
  path: (string | number)[];
  message: string;
}

type Schema = WireSchema & {
  type?: string;
  format?: string;
  maxLength?: number;
  pattern?: string;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  discriminator?: { propertyName: string };
  contentSchema?: Schema;
  additionalProperties?: Schema | boolean;
};

/** The schema that describes `value` among a union's options. */
function optionFor(schema: Schema, value: unknown): Schema {
  if (schema.anyOf) {
    // nullable(x) is anyOf [x, null]; other unions are of scalars, checked by the form whose
    // pattern the value matches (a masked card number beside an id), else by their first form.
    const forms = schema.anyOf.filter((s) => s.type !== "null");
    const matched = forms.find(
      (s) =>
        s.pattern !== undefined && typeof value === "string" && new RegExp(s.pattern).test(value),
    );
    return optionFor(matched ?? forms[0] ?? {}, value);
  }
  if (schema.oneOf) {
    const key = schema.discriminator?.propertyName;
    const tag = key && isPlainObject(value) ? value[key] : undefined;
    const chosen = schema.oneOf.find((s) => s.properties?.[key ?? ""]?.const === tag);
    return optionFor(chosen ?? {}, value);
  }
  return schema;
}

function collect(schema: Schema, value: unknown, path: (string | number)[], out: Problem[]) {
  const s = optionFor(schema, value);
  if (s.contentSchema) {
    // A JSON-text field: its text on the wire, the value itself on the SDK side.
    if (typeof value !== "string") return collect(s.contentSchema, value, path, out);
    let parsed: unknown;
    try {
      parsed = parseJson(value);
    } catch {
      return; // not JSON: its codec says so
    }
    return collect(s.contentSchema, parsed, path, out);
  }
  if (isJsonNumber(value)) {
    if (s.format === "int64" && !isId64(value.text)) out.push({ path, message: ID_RULE });
    return;
  }
  if (typeof value === "string") {
    if (s.format === "int64") {
      if (!isId64(value)) out.push({ path, message: ID_RULE });
      return;
    }
    if (s.enum) return; // a closed set of short values, checked by its codec
    const max = s.maxLength ?? REQUEST_TEXT_MAX_LENGTH;
    if (value.length > max) out.push({ path, message: `must be at most ${max} characters` });
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      collect(s.items ?? {}, item, [...path, i], out);
    });
    return;
  }
  if (isPlainObject(value)) {
    const extra = typeof s.additionalProperties === "object" ? s.additionalProperties : {};
    for (const [key, item] of Object.entries(value)) {
      collect(s.properties?.[key] ?? extra, item, [...path, key], out);
    }
  }
}

/** Every limit `value` (SDK-side) breaks under `wire`, with the path of its field. */
export function requestProblems(wire: WireSchema, value: unknown): Problem[] {
  const out: Problem[] = [];
  collect(wire as Schema, value, [], out);
  return out;
}

function limitsCheck(wire: WireSchema) {
  return v.rawCheck<unknown>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    for (const problem of requestProblems(wire, dataset.value)) {
      addIssue({
        message: problem.message,
        path: problem.path.map((key) => ({
          type: "unknown",
          origin: "value",
          input: dataset.value,
          key,
          value: undefined,
        })) as never,
      });
    }
  });
}

/**
 * The request codec `base` held to the request limits in both directions: after encoding (the
 * client, before sending) and after decoding (the sandbox, on arrival). A value the codec itself
 * refuses gets the codec's issues; the limits are checked once it is otherwise valid.
 */
export function withRequestLimits<C extends Codec<unknown, unknown>>(base: C): C {
  const check = limitsCheck(base.wire);
  const ok = (value: unknown) => requestProblems(base.wire, value).length === 0;
  const [read, write] = [decodePath(base), encodePath(base)];
  const decodeFast: FastPath = (input) => {
    const value = read(input);
    return value !== MISS && ok(value) ? value : MISS;
  };
  const encodeFast: FastPath = (input) => {
    const wire = write(input);
    return wire !== MISS && ok(wire) ? wire : MISS;
  };
  // The rest of `base` (an object codec's shape) stays as it is.
  return {
    ...base,
    ...codec(
      v.pipe(base.decode as v.GenericSchema, check),
      v.pipe(base.encode as v.GenericSchema, check),
      base.wire,
      { decode: decodeFast, encode: encodeFast },
    ),
  } as C;
}
