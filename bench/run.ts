/**
 * `pnpm bench`: runs every bench/*.bench.ts (or the ones named on the command line, by
 * substring) one after another in this process and prints their side-by-side tables.
 */
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();

if (files.length === 0) {
  console.error(`no benchmark matches ${filters.join(", ")}`);
  process.exit(1);
}
for (const f of files) {
  console.log(`\n# ${f}`);
  const mod = (await import(pathToFileURL(join(here, f)).href)) as { run?: () => Promise<void> };
  if (typeof mod.run !== "function") throw new Error(`${f} must export async function run()`);
  await mod.run();
}
