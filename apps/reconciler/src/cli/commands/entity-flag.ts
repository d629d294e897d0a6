// An entity as a command line names it (MERCHANT_NO for the merchant itself, a sub-merchant of
// RECONCILER_ENTITIES), turned into its stored form ('' for the merchant itself, the
// sub-merchant's merchantNo): the one check `breaks list --entity`, `report --entity` and
// `users add|set-entities --limit-to` share. Any other entity is refused, since a misspelt
// one would show nothing and look like an empty queue.
import type { ReconcilerConfig } from "../../config/reconciler-config";
import { UsageError } from "../parse-args";

type EntityConfig = Pick<ReconcilerConfig, "merchantNo" | "entities">;

/** The stored form of entity `typed` given with `flag`; a UsageError naming the flag and the rule. */
export function storedEntity(
  typed: string,
  config: EntityConfig | undefined,
  flag: string,
): string {
  const entity = typed.trim();
  if (entity !== "" && entity === config?.merchantNo) return "";
  if (config?.entities.includes(entity)) return entity;
  throw new UsageError(
    `${flag}: must be the merchant (MERCHANT_NO${config?.merchantNo ? ` ${config.merchantNo}` : ", unset"}) or a sub-merchant of RECONCILER_ENTITIES (${config?.entities.length ? config.entities.join(", ") : "none set"}); got ${JSON.stringify(entity.slice(0, 64))}`,
  );
}

/** Comma-separated entities of `flag`, each checked and named once, in stored form. */
export function storedEntities(
  text: string,
  config: EntityConfig | undefined,
  flag: string,
): string[] {
  const typed = text.split(",").map((e) => e.trim());
  if (typed.some((e) => e === ""))
    throw new UsageError(`${flag}: name entities separated by single commas, none empty`);
  const stored = typed.map((e) => storedEntity(e, config, flag));
  const twice = typed.find((_, i) => stored.indexOf(stored[i] as string) !== i);
  if (twice !== undefined) throw new UsageError(`${flag}: names ${twice} twice: name each once`);
  return stored;
}

/** How an entity is shown: its merchantNo, or MERCHANT_NO's for '' ("(merchant)" when unset). */
export function shownEntity(entity: string, config: EntityConfig | undefined): string {
  return entity === "" ? (config?.merchantNo ?? "(merchant)") : entity;
}
