import fc from "fast-check";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { MISS, throughSchema } from "./fast-path";
import { objectWalk } from "./object-walk";

// The walk must answer like valibot's own object schemas, including the edges the contract's
// shapes do not reach: defaults, prototype names, keys present with undefined.
const entries = {
  id: v.string(),
  count: v.optional(v.number()),
  filled: v.optional(v.string(), "default"),
  tag: v.nullable(v.picklist(["a", "b"])),
};
const fast = Object.fromEntries(
  Object.entries(entries).map(([key, schema]) => [key, throughSchema(schema)]),
);

const input = fc.dictionary(
  fc.constantFrom("id", "count", "filled", "tag", "extra", "__proto__", "constructor"),
  fc.constantFrom<unknown>("x", 1, null, undefined, "a", "b", {}),
);

describe("objectWalk", () => {
  for (const [kind, schema] of [
    ["copy", v.looseObject(entries)],
    ["refuse", v.strictObject(entries)],
  ] as const) {
    it(`answers like valibot's ${kind === "copy" ? "loose" : "strict"} object`, () => {
      const walk = objectWalk(entries, fast, kind);
      fc.assert(
        fc.property(input, (value) => {
          const out = walk?.(value);
          if (out === MISS) return;
          const exact = v.safeParse(schema, value);
          expect(exact.success).toBe(true);
          expect(out).toStrictEqual(exact.output);
        }),
        { numRuns: 300 },
      );
      const valid = { id: "x", count: undefined, filled: "y", tag: null };
      expect(walk?.(valid)).toStrictEqual(v.parse(schema, valid));
    });
  }

  it("leaves a missing key with a default to the schema", () => {
    expect(objectWalk(entries, fast, "copy")?.({ id: "x", tag: null })).toBe(MISS);
  });

  it("keeps the schema's walk for shapes with Object.prototype names", () => {
    expect(objectWalk({ toString: v.string() }, {}, "copy")).toBeUndefined();
  });
});
