import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { withoutFastPaths } from "../testing/without-fast-paths";
import { fastPathOf, MISS, withFastPath } from "./fast-path";

const upper = v.pipe(v.string(), v.toUpperCase());

describe("withFastPath", () => {
  const calls: unknown[] = [];
  const schema = withFastPath(upper, (input) => {
    calls.push(input);
    return input === "ok" ? "OK" : MISS;
  });

  it("answers through the fast path, and through the schema when it MISSes", () => {
    expect(v.parse(schema, "ok")).toBe("OK");
    expect(v.parse(schema, "abc")).toBe("ABC");
    expect(v.safeParse(schema, 1).issues?.[0]?.message).toMatch(/Invalid type/);
    expect(calls).toEqual(["ok", "abc", 1]);
  });

  it("validates through the fast path in the Standard Schema interface too", () => {
    expect(schema["~standard"].validate("ok")).toMatchObject({ value: "OK" });
  });

  it("does not hand its fast path to a pipe built on it (the pipe's actions would be skipped)", () => {
    const longer = v.pipe(schema, v.minLength(3));
    expect(v.safeParse(longer, "ok").success).toBe(false);
    expect(fastPathOf(longer)("ok")).toBe(MISS);
  });

  it("can be turned off, for tests that compare both ways", () => {
    calls.length = 0;
    expect(withoutFastPaths(() => v.parse(schema, "ok"))).toBe("OK");
    expect(calls).toEqual([]);
  });
});

describe("fastPathOf", () => {
  it("runs a schema without a fast path, answering MISS on any issue", () => {
    const fast = fastPathOf(upper);
    expect(fast("abc")).toBe("ABC");
    expect(fast(1)).toBe(MISS);
  });
});
