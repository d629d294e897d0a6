/**
 * Codecs for single wire values: strings with limits, open and closed enums, integers, times,
 * 64-bit ids and decimal amounts. Ids and amounts go through core's lossless schemas so no
 * digit is ever lost between the wire and the SDK.
 */
import {
  checkDecimal,
  decimalFromNumberText,
  decimalFromWire,
  decimalString,
  decimalToWire,
  idFromWire,
  idString,
  idToWire,
  isJsonNumber,
  isWireInteger,
  JsonNumber,
  jsonString,
} from "@merchantkit/core";
import * as v from "valibot";
import { type Codec, type CodecFastPaths, codec } from "./codec";
import { type FastPath, type Keeps, keeps, MISS } from "./fast-path";

export interface StringRule {
  minLength?: number;
  maxLength?: number;
  pattern?: { regex: RegExp; message: string };
  /** Must not be "" (the service drops empty values from the signature, so they mean "absent"). */
  nonEmpty?: boolean;
  /** "int64": a 64-bit id carried as digits, which the request limits hold to that range. */
  format?: "int64";
  /** A rule past lengths and pattern (a date the calendar has), with its message. */
  check?: { test: (value: string) => boolean; message: string };
}

function stringSchema(rule: StringRule): v.GenericSchema<string, string> {
  const actions: v.PipeItem<string, string, v.BaseIssue<unknown>>[] = [];
  if (rule.nonEmpty) actions.push(v.nonEmpty("must not be empty"));
  if (rule.minLength !== undefined)
    actions.push(v.minLength(rule.minLength, `must be at least ${rule.minLength} characters`));
  if (rule.maxLength !== undefined)
    actions.push(v.maxLength(rule.maxLength, `must be at most ${rule.maxLength} characters`));
  if (rule.pattern) actions.push(v.regex(rule.pattern.regex, rule.pattern.message));
  if (rule.check) actions.push(v.check(rule.check.test, rule.check.message));
  return v.pipe(v.string("must be a string"), ...actions) as v.GenericSchema<string, string>;
}

// The rule's lengths as Keeps (nonEmpty is a length of at least 1).
function stringKeeps(rule: StringRule): Keeps {
  const { minLength = 0, maxLength = Number.POSITIVE_INFINITY } = rule;
  return {
    kind: "string",
    min: rule.nonEmpty ? Math.max(minLength, 1) : minLength,
    max: maxLength,
  };
}

// The same rule for the fast path: its lengths as Keeps, or a test where it has a pattern or a
// check too (which Keeps cannot state).
function stringFast(rule: StringRule): Keeps | ((value: unknown) => boolean) {
  const lengths = stringKeeps(rule);
  const { pattern, check } = rule;
  if (pattern === undefined && check === undefined) return lengths;
  return (value) =>
    keeps(lengths, value) &&
    (pattern === undefined || pattern.regex.test(value as string)) &&
    (check === undefined || check.test(value as string));
}

/**
 * Fast paths for a value that is its own wire value, accepted by `accepts`: a test, or Keeps,
 * the rule stated as data, which the object walk then also checks inline (fast-path.ts);
 * `write` gives its JSON text.
 */
function same(
  accepts: Keeps | ((value: unknown) => boolean),
  write: (value: never) => string,
): CodecFastPaths {
  const test = typeof accepts === "function" ? accepts : (value: unknown) => keeps(accepts, value);
  const fast: FastPath = (value) => (test(value) ? value : MISS);
  return {
    decode: fast,
    encode: fast,
    text: (value) => (test(value) ? write(value as never) : MISS),
    ...(typeof accepts === "function" ? {} : { keeps: accepts }),
  };
}

export function string(rule: StringRule = {}): Codec<string, string> {
  const schema = stringSchema(rule);
  const wire: Record<string, unknown> = { type: "string" };
  if (rule.minLength !== undefined) wire.minLength = rule.minLength;
  if (rule.maxLength !== undefined) wire.maxLength = rule.maxLength;
  if (rule.pattern) wire.pattern = rule.pattern.regex.source;
  if (rule.format) wire.format = rule.format;
  return codec(schema, schema, wire, same(stringFast(rule), jsonString));
}

const CALENDAR_FORMS = {
  date: { regex: /^\d{4}-\d{2}-\d{2}$/, shape: "a date in the form YYYY-MM-DD" },
  dateTime: {
    regex: /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/,
    shape: "a time in the form YYYY-MM-DD HH:mm:ss",
  },
};

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * Whether "YYYY-MM-DD" or "YYYY-MM-DD HH:mm:ss" (already of that shape) names a day the month
 * has (2026-02-30 does not; 29 February in leap years only) and a time from 00:00:00 to 23:59:59.
 */
function existsOnCalendar(text: string): boolean {
  const field = (from: number) => Number(text.slice(from, from + 2));
  const year = Number(text.slice(0, 4));
  const month = field(5);
  const day = field(8);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false;
  return text.length === 10 || (field(11) < 24 && field(14) < 60 && field(17) < 60);
}

/**
 * A local date ("YYYY-MM-DD") or time ("YYYY-MM-DD HH:mm:ss") going out: of that shape, and one
 * that exists, each refused with its own rule (a value of the wrong shape gets the shape's only).
 */
export function calendarString(form: keyof typeof CALENDAR_FORMS): Codec<string, string> {
  const { regex, shape } = CALENDAR_FORMS[form];
  const exists =
    form === "date"
      ? "a date that exists (a day the month has)"
      : "a time that exists (a day the month has, 00:00:00 to 23:59:59)";
  const checked = string({
    pattern: { regex, message: `must be ${shape}` },
    check: {
      test: (value) => !regex.test(value) || existsOnCalendar(value),
      message: `must be ${exists}`,
    },
  });
  return { ...checked, wire: { ...checked.wire, description: exists } };
}

/** A documented set of values; the service sends nothing else and accepts nothing else. */
export function closedEnum<const T extends readonly [string, ...string[]]>(
  values: T,
): Codec<T[number], T[number]> {
  const schema = v.picklist(values, `must be one of ${values.join(", ")}`);
  const known = new Set<unknown>(values);
  return codec(
    schema,
    schema,
    { type: "string", enum: [...values] },
    same((value) => known.has(value), jsonString),
  );
}

/**
 * Documented values the service may extend (payment methods, statuses, transaction types):
 * typed as the known values for autocompletion, but any string passes, so a new value from
 * the service — or from a caller ahead of the SDK — never crashes anything.
 */
export function openEnum<const T extends readonly [string, ...string[]]>(
  values: T,
): Codec<T[number] | (string & {}), string> {
  const schema = stringSchema({ nonEmpty: true }) as v.GenericSchema<
    T[number] | (string & {}),
    string
  >;
  return codec(
    schema,
    schema,
    {
      type: "string",
      examples: [...values],
      description: `known values: ${values.join(", ")}`,
    },
    same(stringKeeps({ nonEmpty: true }), jsonString),
  );
}

export function literal<const T extends string | boolean | number>(value: T): Codec<T, T> {
  const schema = v.literal(value, `must be ${JSON.stringify(value)}`);
  return codec(
    schema,
    schema,
    { const: value },
    same(
      (input) => input === value,
      () => JSON.stringify(value),
    ),
  );
}

export function boolean(): Codec<boolean, boolean> {
  const schema = v.boolean("must be true or false");
  return codec(
    schema,
    schema,
    { type: "boolean" },
    same((input) => typeof input === "boolean", String),
  );
}

/** Counts, page numbers and sizes: safe JS integers. */
export function integer(rule: { min?: number; max?: number } = {}): Codec<number, number> {
  const actions: v.PipeItem<number, number, v.BaseIssue<unknown>>[] = [
    v.integer("must be an integer"),
  ];
  if (rule.min !== undefined) actions.push(v.minValue(rule.min, `must be at least ${rule.min}`));
  if (rule.max !== undefined) actions.push(v.maxValue(rule.max, `must be at most ${rule.max}`));
  const schema = v.pipe(v.number("must be a number"), ...actions) as v.GenericSchema<
    number,
    number
  >;
  const wire: Record<string, unknown> = { type: "integer" };
  if (rule.min !== undefined) wire.minimum = rule.min;
  if (rule.max !== undefined) wire.maximum = rule.max;
  const { min = Number.NEGATIVE_INFINITY, max = Number.POSITIVE_INFINITY } = rule;
  return codec(schema, schema, wire, same({ kind: "integer", min, max }, String));
}

/** A time the service sends as epoch milliseconds; `new Date(value)` converts it. */
export function epochMillis(): Codec<number, number> {
  const schema = v.pipe(
    v.number("must be epoch milliseconds"),
    v.integer("must be epoch milliseconds"),
  );
  return codec(
    schema,
    schema,
    { type: "integer", format: "int64", description: "epoch milliseconds (UTC)" },
    same({ kind: "integer", min: Number.NEGATIVE_INFINITY, max: Number.POSITIVE_INFINITY }, String),
  );
}

/**
 * A time filter the service takes as UTC epoch seconds. The SDK accepts a Date or epoch
 * seconds; Date values are floored to the second.
 */
export function epochSeconds(): Codec<Date | number, number> {
  const seconds = v.pipe(
    v.number("must be epoch seconds or a Date"),
    v.integer("must be whole epoch seconds"),
    v.minValue(0, "must not be negative"),
    // Date.now() passed as seconds (a year near 57,000) found nothing, without a word.
    v.maxValue(MAX_EPOCH_SECONDS, "must be epoch seconds, not milliseconds (at most year 9999)"),
  );
  const encode = v.union(
    [
      v.pipe(
        v.date("must be a valid Date"),
        v.check((d) => !Number.isNaN(d.getTime()), "must be a valid Date"),
        v.transform((d) => Math.floor(d.getTime() / 1000)),
        v.minValue(0, "must not be before 1970"),
        v.maxValue(MAX_EPOCH_SECONDS, "must not be after year 9999"),
      ),
      seconds,
    ],
    "must be epoch seconds or a Date",
  );
  return codec(
    seconds as v.GenericSchema<unknown, Date | number>,
    encode as v.GenericSchema<Date | number, number>,
    {
      type: "integer",
      format: "int64",
      description: "epoch seconds (UTC)",
    },
    {
      decode: (input) => (isEpochSeconds(input) ? input : MISS),
      encode: (input) => {
        if (input instanceof Date) {
          const seconds = Math.floor(input.getTime() / 1000);
          return isEpochSeconds(seconds) ? seconds : MISS;
        }
        return isEpochSeconds(input) ? input : MISS;
      },
    },
  );
}

/** 9999-12-31T23:59:59Z: beyond it a "seconds" value is milliseconds passed by mistake. */
const MAX_EPOCH_SECONDS = 253_402_300_799;

function isEpochSeconds(value: unknown): value is number {
  return (
    Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_EPOCH_SECONDS
  );
}

/**
 * An id read from the wire, for the common forms: a JsonNumber or a safe number (a bare JSON
 * number) or a digit string; its digits, or MISS (idFromWire then decides).
 */
const readId: FastPath = (input) => {
  if (isJsonNumber(input)) return isWireInteger(input.text) ? input.text : MISS;
  if (typeof input === "number")
    return Number.isSafeInteger(input) && input >= 0 ? String(input) : MISS;
  if (typeof input === "string") return DIGITS.test(input) ? input : MISS;
  return MISS;
};
const DIGITS = /^\d+$/;

/** A 64-bit id the wire carries as a bare JSON number; a string of digits in the SDK. */
export function id(): Codec<string, JsonNumber> {
  return codec(
    idFromWire(),
    idToWire() as v.GenericSchema<string, JsonNumber>,
    { type: "integer", format: "int64" },
    {
      decode: readId,
      encode: (input) =>
        typeof input === "string" && isWireInteger(input) ? new JsonNumber(input) : MISS,
      // An id given as digits is its own JSON text.
      text: (input) => (typeof input === "string" && isWireInteger(input) ? input : MISS),
    },
  );
}

/**
 * An id the wire carries as a string (payout ids); accepted as a number too when reading.
 * `int64`: the service documents it as a 64-bit id, which the request limits then enforce.
 */
export function idText(rule: { maxLength?: number; int64?: boolean } = {}): Codec<string, string> {
  const encode = idString(rule) as v.GenericSchema<string, string>;
  const decode = v.union([idFromWire(), encode]) as v.GenericSchema<unknown, string>;
  const { maxLength = Number.POSITIVE_INFINITY } = rule;
  const asText: FastPath = (input) =>
    typeof input === "string" && input.length > 0 && input.length <= maxLength ? input : MISS;
  return codec(
    decode,
    encode,
    {
      type: "string",
      ...(rule.maxLength ? { maxLength: rule.maxLength } : {}),
      ...(rule.int64 ? { format: "int64" } : {}),
    },
    {
      // A union answers with its first option that accepts the value.
      decode: (input) => {
        const digits = readId(input);
        return digits === MISS ? asText(input) : digits;
      },
      encode: asText,
    },
  );
}

export interface AmountRule {
  /** Digits after the decimal point allowed (2 where the contract says "at most 2 decimals"). */
  maxScale?: number;
  sign?: "positive" | "nonNegative" | "any";
}

/** Reads an amount in any wire form, then holds it to the same rule as on the way out. */
function readAmount(rule: AmountRule): v.GenericSchema<unknown, string> {
  const read = decimalFromWire() as v.GenericSchema<unknown, string>;
  return v.pipe(
    read,
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const problem = checkDecimal(dataset.value, rule);
      if (problem) addIssue({ message: problem });
    }),
  );
}

// The text of a wire amount, as decimalFromWire reads it.
function amountText(input: unknown): string | undefined {
  if (typeof input === "string") return input;
  if (isJsonNumber(input)) return input.text;
  // String(-0) is "0": the sign of a zero is kept (JSON.parse reads "-0.00" as -0).
  if (typeof input === "number" && Number.isFinite(input))
    return Object.is(input, -0) ? "-0" : String(input);
  return undefined;
}

/** readAmount's fast path. */
function readAmountFast(rule: AmountRule): FastPath {
  // What decimalFromWire gives is a decimal string already: with no scale or sign to hold it
  // to, there is nothing left to check.
  const free = rule.maxScale === undefined && (rule.sign ?? "any") === "any";
  return (input) => {
    const text = amountText(input);
    const amount = text === undefined ? undefined : decimalFromNumberText(text);
    if (amount === undefined) return MISS;
    return free || checkDecimal(amount, rule) === undefined ? amount : MISS;
  };
}

/** An amount the wire carries as a JSON number (issuing); an exact decimal string in the SDK. */
export function amountNumber(rule: AmountRule = {}): Codec<string, JsonNumber> {
  return codec(
    readAmount(rule),
    decimalToWire(rule) as v.GenericSchema<string, JsonNumber>,
    {
      type: "number",
      ...(rule.sign === "positive" ? { exclusiveMinimum: 0 } : {}),
      ...(rule.maxScale !== undefined ? { multipleOf: 10 ** -rule.maxScale } : {}),
    },
    {
      decode: readAmountFast(rule),
      encode: (input) =>
        checkDecimal(input, rule) === undefined ? new JsonNumber(input as string) : MISS,
      // A decimal string that meets the rule is JSON number text as it is.
      text: (input) => (checkDecimal(input, rule) === undefined ? (input as string) : MISS),
    },
  );
}

/** An amount the wire carries as a decimal string (account, profit share, payout). */
export function amountString(rule: AmountRule = {}): Codec<string, string> {
  return codec(
    readAmount(rule),
    decimalString(rule) as v.GenericSchema<string, string>,
    {
      type: "string",
      pattern:
        rule.sign === "any" || rule.sign === undefined ? "^-?\\d+(\\.\\d+)?$" : "^\\d+(\\.\\d+)?$",
    },
    {
      decode: readAmountFast(rule),
      encode: (input) => (checkDecimal(input, rule) === undefined ? input : MISS),
      // Digits, a sign and a point never need escaping.
      text: (input) => (checkDecimal(input, rule) === undefined ? `"${input as string}"` : MISS),
    },
  );
}
