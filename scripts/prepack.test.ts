/**
 * scripts/prepack.mjs, the `prepack` every package shares: `pnpm pack` of a package that was not
 * built, or was changed after its build, fails with a message saying so instead of shipping a
 * tarball without dist/. Tried on scratch packages; and every package under packages/ runs it.
 */
import { spawnSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..");
const SCRIPT = join(root, "scripts", "prepack.mjs");

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A package like ours: src/, exports pointing into dist/ (built when `built` is set). */
function scratchPackage(built: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), "prepack-"));
  made.push(dir);
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({
      name: "@merchantkit/scratch",
      exports: {
        ".": {
          "@merchantkit/source": "./src/index.ts",
          types: "./dist/index.d.mts",
          import: "./dist/index.mjs",
        },
        "./package.json": "./package.json",
      },
    }),
  );
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "src", "index.ts"), "export const a = 1;\n");
  writeFileSync(join(dir, "src", "index.test.ts"), "\n");
  const past = new Date(Date.now() - 60_000);
  utimesSync(join(dir, "src", "index.ts"), past, past);
  if (built) {
    mkdirSync(join(dir, "dist"));
    for (const file of ["index.mjs", "index.d.mts"]) writeFileSync(join(dir, "dist", file), "\n");
  }
  return dir;
}

const prepack = (dir: string) =>
  spawnSync(process.execPath, [SCRIPT], { cwd: dir, encoding: "utf8" });

describe("prepack", () => {
  it("passes a package built after its last change (a test changed since does not count)", () => {
    const dir = scratchPackage(true);
    writeFileSync(join(dir, "src", "index.test.ts"), "// edited after the build\n");
    const run = prepack(dir);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("refuses a package that was never built, saying to build first", () => {
    const run = prepack(scratchPackage(false));
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("@merchantkit/scratch: dist/ is missing");
    expect(run.stderr).toContain("pnpm build");
  });

  it("refuses a dist/ that lacks a file the exports name", () => {
    const dir = scratchPackage(true);
    rmSync(join(dir, "dist", "index.d.mts"));
    const run = prepack(dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("dist/ lacks ./dist/index.d.mts");
  });

  it("refuses a dist/ older than src/, naming the file changed since", () => {
    const dir = scratchPackage(true);
    const future = new Date(Date.now() + 60_000);
    utimesSync(join(dir, "src", "index.ts"), future, future);
    const run = prepack(dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      "dist/ is older than src/ (src/index.ts changed after the last build)",
    );
  });

  it("is the prepack of every package under packages/, one shared script", () => {
    for (const name of readdirSync(join(root, "packages"))) {
      const pkg = JSON.parse(readFileSync(join(root, "packages", name, "package.json"), "utf8"));
      expect(pkg.scripts?.prepack, name).toBe("node ../../scripts/prepack.mjs");
    }
  });
});
