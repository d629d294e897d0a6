import { MISS } from "@merchantkit/core";
import fc from "fast-check";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { objectFastPath } from "./object-fast-path";

// The compiled walk is what runs wherever code generation is allowed; the loop is the same walk
// for runtimes that forbid it. Both must answer like valibot's own object schemas.
const entries = {
  id: v.string(),
  count: v.optional(v.number()),
  filled: v.optional(v.string(), "default"),
  tag: v.nullable(v.picklist(["a", "b"])),
};

const input = fc.dictionary(
  fc.constantFrom("id", "count", "filled", "tag", "extra", "__proto__", "constructor"),
  fc.constantFrom<unknown>("x", 1, null, undefined, "a", "b", {}),
);

describe("objectFastPath", () => {
  for (const [kind, schema] of [
    ["copy", v.looseObject(entries)],
    ["refuse", v.strictObject(entries)],
  ] as const) {
    it(`answers like valibot's ${kind === "copy" ? "loose" : "strict"} object, compiled or not`, () => {
      const compiled = objectFastPath(entries, kind, true);
      const looped = objectFastPath(entries, kind, false);
      fc.assert(
        fc.property(input, (value) => {
          const exact = v.safeParse(schema, value);
          for (const walk of [compiled, looped]) {
            const out = walk?.(value);
            if (out === MISS) continue;
            expect(exact.success).toBe(true);
            expect(out).toStrictEqual(exact.output);
          }
        }),
        { numRuns: 300 },
      );
    });
  }

  it("leaves a missing key with a default to the schema", () => {
    expect(objectFastPath(entries, "copy", true)?.({ id: "x", tag: null })).toBe(MISS);
    expect(objectFastPath(entries, "copy", false)?.({ id: "x", tag: null })).toBe(MISS);
  });

  it("keeps the schema's walk for shapes with Object.prototype names", () => {
    expect(objectFastPath({ toString: v.string() }, "copy")).toBeUndefined();
  });
});
