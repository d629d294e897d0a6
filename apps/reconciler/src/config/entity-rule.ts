// Which entities a person may name: the merchant itself (MERCHANT_NO) or a sub-merchant of
// RECONCILER_ENTITIES. The CLI's --entity flags and the console's ?entity= check a typed entity
// here, so both take and refuse the same ones: a misspelt entity would show nothing and look
// like an empty queue or a reconciled report.
import type { ReconcilerConfig } from "./reconciler-config";

export type EntityConfig = Pick<ReconcilerConfig, "merchantNo" | "entities">;

/**
 * The stored form of `typed` ('' for the merchant itself, the sub-merchant's merchantNo), or
 * `refused`: what is wrong, naming `field` and the rule.
 */
export function checkEntity(
  typed: string,
  config: EntityConfig | undefined,
  field: string,
): { entity: string } | { refused: string } {
  const entity = typed.trim();
  if (entity !== "" && entity === config?.merchantNo) return { entity: "" };
  if (config?.entities.includes(entity)) return { entity };
  return {
    refused: `${field}: must be the merchant (MERCHANT_NO${config?.merchantNo ? ` ${config.merchantNo}` : ", unset"}) or a sub-merchant of RECONCILER_ENTITIES (${config?.entities.length ? config.entities.join(", ") : "none set"}); got ${JSON.stringify(entity.slice(0, 64))}`,
  };
}
