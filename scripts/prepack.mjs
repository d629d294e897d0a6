#!/usr/bin/env node
// The `prepack` of every package under packages/ (`node ../../scripts/prepack.mjs`): refuses to
// pack a package whose build is missing or out of date, so a tarball never ships without its
// dist/ or with a dist/ older than its sources. It never builds: CI packs right after
// `pnpm build`, and a build here would hide a broken build order. Plain Node, no dependencies.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const dir = process.cwd();
const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));

/** The files a consumer loads: every export target as published (publishConfig wins). */
function targets(value) {
  if (typeof value === "string") return [value];
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value)
    .filter(([condition]) => condition !== "@merchantkit/source")
    .flatMap(([, target]) => targets(target));
}
const published = targets(pkg.publishConfig?.exports ?? pkg.exports ?? {}).filter((target) =>
  target.startsWith("./dist/"),
);

/** Newest modification time under `folder`, leaving out tests (they are not built). */
function newestSource(folder) {
  let newest = { time: 0, file: "" };
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || /\.test(-d)?\.ts$/.test(entry.name)) continue;
    const file = join(entry.parentPath ?? entry.path, entry.name);
    const time = statSync(file).mtimeMs;
    if (time > newest.time) newest = { time, file };
  }
  return newest;
}

function refuse(problem) {
  console.error(
    `${pkg.name}: ${problem}. Build before packing (pnpm build at the repository root); prepack does not build.`,
  );
  process.exit(1);
}

if (!existsSync(join(dir, "dist"))) refuse("dist/ is missing");
const missing = published.filter((target) => !existsSync(join(dir, target)));
if (missing.length > 0) refuse(`dist/ lacks ${missing.join(", ")}, which package.json exports`);

if (published.length > 0 && existsSync(join(dir, "src"))) {
  const source = newestSource(join(dir, "src"));
  const built = Math.min(...published.map((target) => statSync(join(dir, target)).mtimeMs));
  if (source.time > built) {
    refuse(
      `dist/ is older than src/ (${source.file.slice(dir.length + 1)} changed after the last build)`,
    );
  }
}
