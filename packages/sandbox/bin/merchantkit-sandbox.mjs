#!/usr/bin/env node
// Starts the sandbox from the shell. Runs the built CLI when the package is built (published),
// else the TypeScript source through tsx (inside the merchantkit workspace).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const built = join(root, "dist", "bin.mjs");
if (existsSync(built)) {
  await import(pathToFileURL(built).href);
} else {
  const source = join(root, "src", "bin.ts");
  const result = spawnSync(
    process.execPath,
    ["--conditions=@merchantkit/source", "--import", "tsx", source, ...process.argv.slice(2)],
    { stdio: "inherit" },
  );
  process.exit(result.status ?? 1);
}
