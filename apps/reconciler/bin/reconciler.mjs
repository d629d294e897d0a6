#!/usr/bin/env node
// `reconciler`: runs the built CLI when the app is built (dist/cli.mjs), else the TypeScript
// source through tsx (inside the merchantkit workspace). The source child gets SIGINT/SIGTERM
// forwarded, so a stop from systemd or Kubernetes (sent to this process only) still lets the
// sync finish its window.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const built = join(root, "dist", "cli.mjs");
if (existsSync(built)) {
  const { runCli } = await import(pathToFileURL(built).href);
  await runCli(process.argv.slice(2));
} else {
  const source = join(root, "src", "cli", "main.ts");
  // Resolved from here, not from the working directory (which may be anywhere).
  const tsx = import.meta.resolve("tsx");
  const child = spawn(
    process.execPath,
    ["--conditions=@merchantkit/source", "--import", tsx, source, ...process.argv.slice(2)],
    { stdio: "inherit" },
  );
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => {
    process.exitCode = code ?? (signal === "SIGINT" ? 130 : signal === "SIGTERM" ? 143 : 1);
  });
}
