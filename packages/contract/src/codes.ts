/**
 * Business codes: what each respCode means and which typed error of core it becomes. One table
 * per area; the area's endpoints classify failures through it.
 */
import type { ApiErrorKind } from "@merchantkit/core";

export interface CodeInfo {
  meaning: string;
  /** The typed error a client throws; undefined for the success code. */
  kind: ApiErrorKind | undefined;
  /** Where the code comes from: the provider's documentation, or our design (docs/assumptions.md). */
  source: "documented" | "assumed";
}

export type CodeTable = Readonly<Record<string, CodeInfo>>;

/**
 * An area's business code → the typed error it becomes (undefined: unknown, a plain ApiError).
 * Named so the declarations of the endpoints that hold one (`codes`) write this name, not an
 * import type of core's ApiErrorKind: the bundled .d.ts mixed such import types with the named
 * import of ApiErrorKind and lost the name ("Cannot find name 'ApiErrorKind'", check-pack).
 */
export type CodeClassifier = (respCode: string) => ApiErrorKind | undefined;

export function classifier(table: CodeTable): CodeClassifier {
  return (respCode) => table[respCode]?.kind;
}
