// Drift check: do the committed migrations (../../drizzle) still produce schema.ts? Runs
// drizzle-kit generate into a temporary copy of the folder; any new or changed file is drift.
// CLI: `npx tsx apps/reconciler/src/db/check-migrations.ts` (exit code 1 on drift).
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const appDir = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

interface DriftReport {
  /** Files drizzle-kit generate added or changed: empty when schema and migrations agree. */
  drift: string[];
  /** drizzle-kit's own output, for the failure message. */
  output: string;
}

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

function drizzleKit(args: string[]): { ok: boolean; output: string } {
  const bin = join(appDir, "node_modules", "drizzle-kit", "bin.cjs");
  const run = spawnSync(process.execPath, [bin, ...args], {
    cwd: appDir, // so the schema's imports (drizzle-orm) resolve from the app
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"], // no TTY: a rename question fails instead of waiting
    timeout: 120_000,
  });
  return {
    ok: run.status === 0,
    output: `${run.stdout ?? ""}${run.stderr ?? ""}${run.error ?? ""}`,
  };
}

/**
 * Generates migrations from src/db/schema.ts into a copy of `migrationsFolder` (default: the
 * committed drizzle folder) and lists what generate added or changed there. Also runs
 * `drizzle-kit check` on the folder (journal and snapshot consistency).
 */
export function checkMigrationDrift(
  migrationsFolder: string = join(appDir, "drizzle"),
): DriftReport {
  const scratch = mkdtempSync(join(tmpdir(), "reconciler-drift-"));
  try {
    const out = join(scratch, "drizzle");
    if (existsSync(migrationsFolder)) cpSync(migrationsFolder, out, { recursive: true });
    // drizzle-kit reads paths relative to its working directory (it prefixes "./").
    const outArg = `--out=${relative(appDir, out)}`;
    const check = drizzleKit(["check", "--dialect=postgresql", outArg]);
    const generate = drizzleKit([
      "generate",
      "--dialect=postgresql",
      "--schema=src/db/schema.ts",
      outArg,
    ]);
    const output = `${check.output}\n${generate.output}`;
    if (!check.ok || !generate.ok) return { drift: ["(drizzle-kit failed, see output)"], output };
    const before = existsSync(migrationsFolder) ? files(migrationsFolder) : [];
    const drift = files(out).filter(
      (file) =>
        !before.includes(file) ||
        readFileSync(join(out, file), "utf8") !==
          readFileSync(join(migrationsFolder, file), "utf8"),
    );
    return { drift, output };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const report = checkMigrationDrift();
  if (report.drift.length === 0) {
    console.log("reconciler migrations match src/db/schema.ts");
  } else {
    console.error(report.output);
    console.error(
      `schema.ts and apps/reconciler/drizzle differ (${report.drift.join(", ")}): run \`pnpm --filter @merchantkit/reconciler db:generate\` and commit the new migration`,
    );
    process.exitCode = 1;
  }
}
