/**
 * Turns valibot issues into our ValidationIssue list. valibot's default messages end with
 * "but received <value>", and the value may be a card number or a secret, so that part is cut:
 * an error names the field and the rule, never the data.
 */
import type * as v from "valibot";
import type { ValidationIssue } from "./local-errors";

type AnyIssue = v.BaseIssue<unknown>;

type PathItem = NonNullable<AnyIssue["path"]>[number];

function pathText(items: readonly PathItem[]): string {
  return items
    .map((item) => {
      const key = (item as { key?: unknown }).key;
      return typeof key === "number" ? `[${key}]` : `.${String(key)}`;
    })
    .join("")
    .replace(/^\./, "");
}

function ruleOf(issue: AnyIssue): string {
  const cut = issue.message.replace(/ but received .*$/s, "");
  return cut.length > 0 ? cut : `invalid ${issue.kind} (${issue.type})`;
}

export function toValidationIssues(issues: readonly AnyIssue[]): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  collect(issues, [], out);
  // Unions report the same rule once per branch; keep the first of each.
  const seen = new Set<string>();
  return out.filter((i) => {
    const k = `${i.path}\u0000${i.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function collect(
  issues: readonly AnyIssue[],
  prefix: readonly PathItem[],
  out: ValidationIssue[],
): void {
  for (const issue of issues) {
    const path = [...prefix, ...(issue.path ?? [])];
    // A union's own issue only says "no option matched"; its nested issues name the real rule.
    // Their paths are relative to the union's value, so the union's path goes in front.
    if (issue.issues && issue.issues.length > 0 && issue.type === "union") {
      collect(issue.issues, path, out);
      continue;
    }
    out.push({ path: pathText(path), message: ruleOf(issue) });
  }
}
