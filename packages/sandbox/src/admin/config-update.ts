/**
 * POST /__sandbox/config: a partial update of the live configuration, validated field by field.
 * Most fields take effect at once (the config object is shared with the runtime and the areas);
 * `seed` and `balances` shape a runtime when it is made, so they apply at the next reset.
 * Secrets are write-only: the configuration is read back with them redacted.
 */
import { checkDecimal, REDACTED } from "@merchantkit/core";
import * as v from "valibot";
import type { SandboxConfig } from "../runtime/config";
import { strict, wholeNumber } from "./admin-schemas";

const text = v.pipe(v.string("must be a string"), v.nonEmpty("must not be empty"));
const url = v.nullable(v.pipe(v.string("must be a string"), v.url("must be an http(s) URL")));
const base64 = v.pipe(
  text,
  v.check(
    (s) => /^[A-Za-z0-9+/]+={0,2}$/.test(s) && Buffer.from(s, "base64").length > 0,
    "must be Base64 text (the key is its decoded bytes)",
  ),
);
const amount = v.pipe(
  v.string("must be a decimal string"),
  v.rawCheck(({ dataset, addIssue }) => {
    const problem = dataset.typed ? checkDecimal(dataset.value) : undefined;
    if (problem) addIssue({ message: problem });
  }),
);

export const configUpdate = strict({
  merchantNo: v.optional(text),
  secretKey: v.optional(text),
  issuingApiKey: v.optional(text),
  accountApiKey: v.optional(text),
  webhookSecret: v.optional(base64),
  /** null removes a URL (its pushes become undeliverable). */
  webhookUrls: v.optional(
    strict({ issuing: v.optional(url), payout: v.optional(url), profitShare: v.optional(url) }),
  ),
  children: v.optional(v.array(text, "must be an array of merchant numbers")),
  webhookRetryIntervalMs: v.optional(wholeNumber(1, 3_600_000)),
  webhookMaxRetries: v.optional(wholeNumber(0, 1_000)),
  timestampSkewMs: v.optional(wholeNumber(0)),
  settleDelayMs: v.optional(wholeNumber(0)),
  reviewDelayMs: v.optional(wholeNumber(0)),
  seed: v.optional(wholeNumber(0, 4_294_967_295)),
  balances: v.optional(
    v.record(
      v.pipe(v.string(), v.regex(/^[A-Z]{3}$/, "must be a three-letter currency code")),
      amount,
      "must be an object of currency → decimal string",
    ),
  ),
});

export type ConfigUpdate = v.InferOutput<typeof configUpdate>;

/** Applies `update` to `config` in place. */
export function applyConfigUpdate(config: SandboxConfig, update: ConfigUpdate): void {
  const { webhookUrls, ...rest } = update;
  for (const [key, value] of Object.entries(rest)) {
    if (value !== undefined) (config as unknown as Record<string, unknown>)[key] = value;
  }
  if (webhookUrls) {
    const urls = { ...config.webhookUrls };
    for (const [kind, value] of Object.entries(webhookUrls)) {
      if (value === undefined) continue;
      urls[kind as keyof SandboxConfig["webhookUrls"]] = value ?? undefined;
    }
    config.webhookUrls = urls;
  }
}

const SECRETS = ["secretKey", "issuingApiKey", "accountApiKey", "webhookSecret"] as const;

/** The configuration as GET /__sandbox/config shows it: secrets replaced by "[REDACTED]". */
export function redactedConfig(config: SandboxConfig): Record<string, unknown> {
  const view: Record<string, unknown> = { ...config };
  for (const key of SECRETS) view[key] = REDACTED;
  return view;
}
