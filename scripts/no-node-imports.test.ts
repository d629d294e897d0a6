/**
 * The SDK packages run on Node, Bun, Deno and Cloudflare Workers without nodejs_compat (issue 14
 * §2): their sources may use Web-standard APIs only — no import of a `node:` module or a bare
 * Node builtin ("crypto", "http"...), and no Node global (Buffer, process). Tests are exempt, and
 * so is `@merchantkit/core/testing` (src/testing/), a real node:http server for Node test
 * suites. The sandbox and the reconciler are Node programs and are not checked.
 */

import { readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..");
const PACKAGES = ["core", "contract", "payout", "account", "issuing", "profit-share", "webhooks"];
const EXEMPT = [join(root, "packages", "core", "src", "testing")];

const builtins = builtinModules.filter((m) => !m.startsWith("_")).join("|");
// `from "node:x"`, `import("x")`, `require("x")` and `from "x"` for a bare builtin name.
const NODE_IMPORT = new RegExp(
  `(?:from|import|require)\\s*\\(?\\s*["'](?:node:[^"']+|(?:${builtins})(?:/[^"']*)?)["']`,
);
const NODE_GLOBAL = /\bBuffer\.(?:from|concat|alloc|byteLength|isBuffer)\b|\bprocess\.\w+/;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (EXEMPT.includes(path)) continue;
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith(".ts") && !name.endsWith(".test.ts")) out.push(path);
  }
  return out;
}

/** What each source uses from Node, as "file: line". */
function nodeUses(pattern: RegExp): string[] {
  return PACKAGES.flatMap((pkg) => sourceFiles(join(root, "packages", pkg, "src"))).flatMap(
    (file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .filter((line) => pattern.test(line) && !/^\s*(?:\*|\/\/)/.test(line))
        .map((line) => `${relative(root, file)}: ${line.trim()}`),
  );
}

describe("SDK packages use Web-standard APIs only", () => {
  it("imports no node: module and no bare Node builtin outside tests", () => {
    expect(nodeUses(NODE_IMPORT)).toEqual([]);
  });

  it("uses no Node global (Buffer, process) outside tests", () => {
    expect(nodeUses(NODE_GLOBAL)).toEqual([]);
  });

  it("would notice one (the patterns match what they are meant to)", () => {
    for (const line of [
      'import { createHmac } from "node:crypto";',
      'import type { IncomingMessage } from "node:http";',
      'import http from "http";',
      'const fs = await import("node:fs");',
      'const { hash } = require("crypto");',
    ]) {
      expect(NODE_IMPORT.test(line), line).toBe(true);
    }
    expect(NODE_IMPORT.test('import ky from "ky";')).toBe(false);
    expect(NODE_IMPORT.test('import { x } from "./crypto-helpers";')).toBe(false);
    expect(NODE_GLOBAL.test('Buffer.from(text, "utf8")')).toBe(true);
    expect(NODE_GLOBAL.test("process.env.HOME")).toBe(true);
  });
});
