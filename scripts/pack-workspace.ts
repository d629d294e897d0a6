/**
 * Packs the workspace's publishable packages (`pnpm pack`, which rewrites `workspace:` ranges)
 * into a folder, for the pack checks to install from tarballs outside the workspace.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

export const root = resolve(import.meta.dirname, "..");

export interface Pkg {
  name: string;
  dir: string;
  private?: boolean;
  exports?: Record<string, unknown>;
}

/** The non-private packages under each of `folders` (relative to the workspace root). */
export function publicPackages(folders: readonly string[]): Pkg[] {
  return folders
    .flatMap((folder) => readdirSync(join(root, folder)).map((d) => join(root, folder, d)))
    .filter((dir) => existsSync(join(dir, "package.json")))
    .map((dir) => ({
      ...(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Pkg),
      dir,
    }))
    .filter((p) => !p.private);
}

/** Runs a command, its stdout as text (stderr passes through). */
export const run = (cmd: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv) =>
  execFileSync(cmd, args, {
    cwd,
    env: env ?? process.env,
    stdio: ["ignore", "pipe", "inherit"],
    encoding: "utf8",
  });

/** Packs each package into `dest`; answers name → `file:<tarball>`, ready for dependencies. */
export function packAll(pkgs: readonly Pkg[], dest: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const pkg of pkgs) {
    const out = run("pnpm", ["pack", "--pack-destination", dest], pkg.dir).trim().split("\n");
    const tgz = out[out.length - 1] ?? "";
    files[pkg.name] = `file:${tgz}`;
    console.log(`packed ${pkg.name} → ${tgz}`);
  }
  return files;
}
