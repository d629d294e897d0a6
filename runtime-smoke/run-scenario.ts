/**
 * Entry for Node, Bun and Deno: reads the driver's input (JSON, first argument's file), runs the
 * scenario on the built packages, prints the steps as one JSON line.
 */
import { runScenario, type SmokeInput } from "./scenario";

declare const Deno: { args: string[]; readTextFileSync(path: string): string } | undefined;

const args: string[] =
  typeof Deno !== "undefined"
    ? Deno.args
    : ((globalThis as { process?: { argv: string[] } }).process?.argv.slice(2) ?? []);
const file = args[0] as string;
const text =
  typeof Deno !== "undefined"
    ? Deno.readTextFileSync(file)
    : await (await import("node:fs/promises")).readFile(file, "utf8");
const steps = await runScenario(JSON.parse(text) as SmokeInput);
console.log(JSON.stringify(steps));
