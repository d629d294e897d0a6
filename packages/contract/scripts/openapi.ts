/**
 * Writes docs/openapi.json from the endpoint table, or with --check fails when the committed
 * file differs from what the table generates (CI runs the check).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { openApiText } from "../src/openapi/build-openapi";

const target = resolve(import.meta.dirname, "../../../docs/openapi.json");
const text = openApiText();
if (process.argv.includes("--check")) {
  let current = "";
  try {
    current = readFileSync(target, "utf8");
  } catch {
    // missing counts as drift
  }
  if (current !== text) {
    console.error("docs/openapi.json is out of date: run `pnpm openapi` and commit it");
    process.exit(1);
  }
  console.log("docs/openapi.json matches the endpoint table");
} else {
  writeFileSync(target, text);
  console.log(`wrote ${target}`);
}
