/**
 * Injected faults: rules set through the admin API that make chosen endpoint calls slow, fail
 * with an HTTP status, be rate limited, lose their connection or get a broken answer. A rule
 * matches an origin path (or "*"), fires on its next `count` matching calls (or on every one),
 * optionally only with a seeded `probability`; with `after: true` the request is processed
 * first and only the answer is replaced (how a test proves a retry made one effect).
 */
import { endpoints, originPath } from "@merchantkit/contract";
import * as v from "valibot";
import { strict, wholeNumber } from "../admin/admin-schemas";

export const FAULT_KINDS = [
  "latency",
  "http_status",
  "rate_limit",
  "reset",
  "malformed_json",
  "wrong_content_type",
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

const ORIGIN_PATHS = new Set(endpoints.map(originPath));

export const faultRuleInput = v.pipe(
  strict({
    path: v.pipe(
      v.string("must be a string"),
      v.check(
        (p) => p === "*" || ORIGIN_PATHS.has(p),
        'must be an endpoint\'s origin path (e.g. "/api/v1/merchant/card/operate") or "*"',
      ),
    ),
    kind: v.picklist(FAULT_KINDS, `must be one of ${FAULT_KINDS.join(", ")}`),
    count: v.optional(wholeNumber(1, 1_000_000)),
    probability: v.optional(
      v.pipe(
        v.number("must be a number"),
        v.minValue(0, "must be at least 0"),
        v.maxValue(1, "must be at most 1"),
      ),
    ),
    status: v.optional(wholeNumber(100, 599)),
    retryAfterSeconds: v.optional(wholeNumber(0, 86_400)),
    latencyMs: v.optional(wholeNumber(0, 120_000)),
    after: v.optional(v.boolean("must be a boolean")),
  }),
  v.forward(
    v.check(
      (r) => r.kind !== "latency" || r.latencyMs !== undefined,
      "is required when kind is latency",
    ),
    ["latencyMs"],
  ),
);

export type FaultRuleInput = v.InferOutput<typeof faultRuleInput>;

export interface FaultRule extends FaultRuleInput {
  id: number;
  /** Calls left before the rule expires; undefined = unlimited. */
  remaining: number | undefined;
  /** How many times it fired. */
  fired: number;
}

/** What applies to one call: delays before and after processing, and at most one action. */
export interface FaultPlan {
  latencyBeforeMs: number;
  latencyAfterMs: number;
  action: FaultRule | undefined;
}

export class FaultRules {
  #rules: FaultRule[] = [];
  #nextId = 1;
  #random: () => number;

  constructor(random: () => number) {
    this.#random = random;
  }

  add(input: FaultRuleInput): FaultRule {
    const rule: FaultRule = { ...input, id: this.#nextId++, remaining: input.count, fired: 0 };
    this.#rules.push(rule);
    return rule;
  }

  list(): FaultRule[] {
    return this.#rules.map((r) => ({ ...r }));
  }

  clear(random?: () => number): void {
    this.#rules = [];
    if (random) this.#random = random;
  }

  get size(): number {
    return this.#rules.length;
  }

  /**
   * Decides the faults of one call to `path` and uses them up. Latency rules add up; the first
   * matching rule of any other kind is the action (later ones are not consulted, so their counts
   * and random draws stay untouched).
   */
  take(path: string): FaultPlan | undefined {
    if (this.#rules.length === 0) return undefined;
    const plan: FaultPlan = { latencyBeforeMs: 0, latencyAfterMs: 0, action: undefined };
    let fired = false;
    for (const rule of this.#rules) {
      if (rule.path !== "*" && rule.path !== path) continue;
      if (rule.kind !== "latency" && plan.action) continue;
      if (rule.probability !== undefined && this.#random() >= rule.probability) continue;
      rule.fired++;
      if (rule.remaining !== undefined) rule.remaining--;
      fired = true;
      if (rule.kind === "latency") {
        if (rule.after) plan.latencyAfterMs += rule.latencyMs ?? 0;
        else plan.latencyBeforeMs += rule.latencyMs ?? 0;
      } else {
        plan.action = rule;
      }
    }
    this.#rules = this.#rules.filter((r) => r.remaining === undefined || r.remaining > 0);
    return fired ? plan : undefined;
  }
}
