// Finds the statements of a match run that loop over one table scanning another whole for each
// row: the nested loops of a plan whose inner side is a sequential scan or a CTE's, with the
// rows they would examine (outer rows × rows scanned; a CTE's count as unbounded). match/statement-plans.test.ts holds every
// statement of a first and an incremental run to a budget of k × the records the run matches;
// the matching bench does the same at 1,000,000 records (its --full rerun).
import type { PlanNode } from "../match/match-options";

export interface ScanningLoop {
  statement: string;
  relation: string;
  examined: number;
}

/** A `runMatch` `explain` option that collects the scanning loops of every statement planned. */
export function collectScanningLoops(): {
  explain: (statement: string, plan: PlanNode) => void;
  loops: ScanningLoop[];
  /** The loops examining more than `budget` rows, worst first. */
  over: (budget: number) => ScanningLoop[];
} {
  const loops: ScanningLoop[] = [];
  return {
    loops,
    explain: (statement, plan) => scanningLoops(statement, plan, loops),
    over: (budget) =>
      loops.filter((l) => l.examined > budget).sort((a, b) => b.examined - a.examined),
  };
}

function scanningLoops(statement: string, node: PlanNode, out: ScanningLoop[]): void {
  const side = (relationship: string) =>
    node.Plans?.find((p) => p["Parent Relationship"] === relationship);
  const outer = side("Outer");
  const inner = side("Inner");
  if (node["Node Type"] === "Nested Loop" && outer && inner)
    for (const scan of seqScans(inner))
      out.push({
        statement,
        relation: scan["Relation Name"] ?? `CTE ${scan["CTE Name"] ?? "?"}`,
        // A CTE has no statistics: its estimate (a row or two for a filtered window that holds
        // thousands) cannot bound a loop rescanning it.
        examined:
          scan["Node Type"] === "CTE Scan"
            ? Number.POSITIVE_INFINITY
            : outer["Plan Rows"] * scan["Plan Rows"],
      });
  for (const child of node.Plans ?? []) scanningLoops(statement, child, out);
}

function seqScans(node: PlanNode): PlanNode[] {
  // A hash is built once, not per outer row; so is an InitPlan (a CTE).
  if (node["Node Type"] === "Hash" || node["Parent Relationship"] === "InitPlan") return [];
  const own = node["Node Type"] === "Seq Scan" || node["Node Type"] === "CTE Scan" ? [node] : [];
  return [...own, ...(node.Plans ?? []).flatMap(seqScans)];
}
