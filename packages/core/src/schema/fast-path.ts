/**
 * Fast paths for valibot schemas. valibot builds a dataset, a pipe and an issue list for every
 * value, which costs several microseconds per field: on a page of 100 card transactions that is
 * most of the time a client spends per page. A fast path is a plain function that handles the
 * valid case directly and answers MISS whenever it is not sure; the schema then runs as before,
 * so every failure still produces valibot's exact issues and every success its exact output.
 *
 * The rule a fast path must keep: when it returns a value, that value is what the schema would
 * output for the same input (the codec tests compare both on generated data). It may MISS where
 * the schema succeeds; it must never succeed where the schema fails.
 */
import * as v from "valibot";
import { fastPathsOn } from "./fast-path-switch";

/** A fast path's answer when it cannot decide: run the full schema instead. */
export const MISS: unique symbol = Symbol("merchantkit.fastPath.miss");
export type Miss = typeof MISS;

/** Output of the schema for `input`, or MISS. */
export type FastPath = (input: unknown) => unknown;

// Registered, so a second installed copy of core still finds the fast paths of the first.
const FAST = Symbol.for("merchantkit.fastPath");

type Runnable = v.GenericSchema & {
  "~run": (
    dataset: v.UnknownDataset,
    config: v.Config<v.BaseIssue<unknown>>,
  ) => v.OutputDataset<unknown, v.BaseIssue<unknown>>;
};

/**
 * The same schema, answering through `fast` first. The copy keeps every property valibot and
 * its helpers read (type, entries, wrapped, pipe), so it composes like the original. The fast
 * path is a non-enumerable property: `v.pipe(schema, …)` spreads its first schema, and a
 * copied fast path would then skip the pipe's own actions.
 */
export function withFastPath<S extends v.GenericSchema>(schema: S, fast: FastPath): S {
  const slow = schema as unknown as Runnable;
  const fastRun: Runnable["~run"] = (dataset, config) => {
    const out = fastPathsOn() ? fast(dataset.value) : MISS;
    if (out === MISS) return slow["~run"](dataset, config);
    const done = dataset as unknown as v.SuccessDataset<unknown>;
    done.typed = true;
    done.value = out;
    return done;
  };
  const copy = {
    ...slow,
    "~run": fastRun,
    "~standard": {
      ...slow["~standard"],
      validate: (value: unknown) => fastRun({ value }, v.getGlobalConfig()),
    },
  } as Runnable;
  Object.defineProperty(copy, FAST, { value: fast });
  return copy as unknown as S;
}

/**
 * The fast path of a schema: its own when it has one, otherwise one that runs the schema and
 * answers MISS on any issue (correct, only not fast), so composites can rely on every part.
 */
export function fastPathOf(schema: v.GenericSchema): FastPath {
  const own = (schema as unknown as { [FAST]?: FastPath })[FAST];
  if (own) return own;
  const runnable = schema as unknown as Runnable;
  return (input) => {
    const dataset = runnable["~run"]({ value: input }, v.getGlobalConfig());
    return dataset.issues ? MISS : dataset.value;
  };
}

/** True when `value` is an object made by `{}` or JSON.parse (what fast paths read directly). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
