/**
 * Money never touches floating point: no source file of any package or app may parse a number
 * out of text with parseFloat or round one with toFixed/toPrecision. Amounts are decimal strings
 * and core's exact BigInt helpers do the arithmetic. (Tests and benchmarks are exempt.)
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..");
const FORBIDDEN = /\bparseFloat\s*\(|\.toFixed\s*\(|\.toPrecision\s*\(/;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name === "dist" || name.startsWith(".")) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith(".ts") && !name.endsWith(".test.ts")) out.push(path);
  }
  return out;
}

describe("no floating point on money", () => {
  it("finds no parseFloat, toFixed or toPrecision in package and app sources", () => {
    const dirs = ["packages", "apps"]
      .map((d) => join(root, d))
      .filter((d) => statSync(d, { throwIfNoEntry: false }));
    const offenders = dirs
      .flatMap(sourceFiles)
      .filter((file) => file.includes(`${"/"}src${"/"}`))
      .filter((file) => FORBIDDEN.test(readFileSync(file, "utf8")))
      .map((file) => relative(root, file));
    expect(offenders).toEqual([]);
    expect(dirs.length).toBeGreaterThan(0);
  });
});
