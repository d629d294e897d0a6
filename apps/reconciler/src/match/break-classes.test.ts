// The break classes are what the passes declare: every class a pass writes is declared once,
// and what is derived from the descriptors (priorities, grace ends, holds, clocks, the docs'
// table) follows a descriptor, including one a newcomer adds.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { breakClass } from "./break-class";
import {
  BREAK_CLASS_DESCRIPTORS,
  BREAK_CLASSES,
  BREAK_PRIORITY,
  CLOCKED_CLASSES,
  graceEnd,
  HOLD_CLASSES,
} from "./break-classes";
import { resolveMatchOptions } from "./match-options";
import { MATCH_PASSES, matchPasses } from "./match-passes";
import { runBreaks } from "./run-breaks";
import { literals } from "./statement";

const o = resolveMatchOptions({ asOf: new Date("2026-11-20T00:00:00Z") });
const v = literals(o);

describe("break classes", () => {
  it("declares each class once, in the pass that first reports it", () => {
    const names = MATCH_PASSES.flatMap((p) => p.classes.map((c) => c.name));
    expect(new Set(names).size).toBe(names.length);
    expect([...BREAK_CLASSES].sort()).toEqual([...names].sort());
  });

  it("declares every class a pass writes", () => {
    // The class column of run_break_items is always a literal or a CASE of literals naming a
    // class; any quoted snake_case word after `class` must be declared.
    const text = matchPasses(o)
      .map((s) => s.text)
      .join("\n");
    const written = new Set(
      [...text.matchAll(/'([a-z]+(?:_[a-z]+)+)'/g)]
        .map((m) => m[1] as string)
        .filter((w) => /_(mismatch|ledger|provider|match|authorization|reversal)$/.test(w)),
    );
    expect(written.size).toBe(BREAK_CLASSES.length);
    for (const w of written) expect(BREAK_CLASSES as string[]).toContain(w);
  });

  it("derives priorities, holds, grace ends and clocks from the descriptors", () => {
    for (const c of BREAK_CLASS_DESCRIPTORS)
      expect(BREAK_PRIORITY[c.name as never]).toBe(c.priority);
    expect([...HOLD_CLASSES]).toEqual(["stale_authorization"]);
    expect(CLOCKED_CLASSES.map((c) => c.name)).toEqual(["stale_authorization"]);
    const end = graceEnd(v);
    for (const c of BREAK_CLASS_DESCRIPTORS)
      expect(end.includes(`'${c.name}'`)).toBe(c.grace !== undefined);
  });

  it("carries a newcomer's class everywhere from its descriptor", () => {
    const late = breakClass({
      name: "late_settlement",
      priority: 2,
      meaning: "a throwaway class of this test",
      grace: (lit) => lit.ledgerGrace,
    });
    const classes = [...BREAK_CLASS_DESCRIPTORS, late];
    expect(graceEnd(v, classes)).toContain(
      `WHEN 'late_settlement' THEN occurred_at + ${v.ledgerGrace}`,
    );
    expect(runBreaks(classes).text).toContain("WHEN 'late_settlement' THEN 2");
  });

  it("lists every class with its priority in docs/reconciler.md", () => {
    const docs = readFileSync(new URL("../../../../docs/reconciler.md", import.meta.url), "utf8");
    const rows = [...docs.matchAll(/^\| `([a-z_]+)`\s*\| (\d) /gm)].map((m) => [
      m[1],
      Number(m[2]),
    ]);
    expect(Object.fromEntries(rows)).toEqual({ ...BREAK_PRIORITY });
  });
});
