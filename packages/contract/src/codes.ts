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

export function classifier(table: CodeTable): (respCode: string) => ApiErrorKind | undefined {
  return (respCode) => table[respCode]?.kind;
}
