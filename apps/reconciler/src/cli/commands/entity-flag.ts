// An entity as a command line names it (MERCHANT_NO for the merchant itself, a sub-merchant of
// RECONCILER_ENTITIES), turned into its stored form ('' for the merchant itself, the
// sub-merchant's merchantNo) by the rule the console shares (config/entity-rule.ts): the one
// check `breaks list --entity`, `report --entity` and `users add|set-entities --limit-to` share.
import { checkEntity, type EntityConfig } from "../../config/entity-rule";
import { UsageError } from "../parse-args";

/** The stored form of entity `typed` given with `flag`; a UsageError naming the flag and the rule. */
export function storedEntity(
  typed: string,
  config: EntityConfig | undefined,
  flag: string,
): string {
  const checked = checkEntity(typed, config, flag);
  if ("refused" in checked) throw new UsageError(checked.refused);
  return checked.entity;
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
