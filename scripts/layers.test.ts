/**
 * Every helper sits below its users (docs/architecture.md, "Layers"): a package depends only on
 * packages of a lower layer, and inside the reconciler a production file imports only from its
 * own folder or a folder of a lower layer; no package has a circle between its files. Tests and test helpers
 * (*.test.ts, src/testing/) may reach anywhere: they use the layers, they are not one.
 */

import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..");

/** Workspace packages, lowest layer first; packages of one layer never depend on each other. */
const PACKAGE_LAYERS = [
  ["core"],
  ["contract"],
  ["payout", "account", "issuing", "profit-share", "webhooks", "sandbox"],
  ["reconciler"],
  ["demo"],
];

/**
 * The reconciler's folders (src/<folder>/), lowest first; "." is the files directly in src/
 * (text, logging and exit codes every layer uses). Folders of one layer never import each other.
 */
const RECONCILER_LAYERS = [
  ["."],
  ["db"],
  ["config"],
  ["store"],
  ["sync", "ledger", "workflow"],
  ["match"],
  ["report", "export"],
  ["cycle"],
  ["webhook-receiver", "console"],
  ["cli"],
  ["index.ts", "testing"],
];

const rank = (layers: string[][], name: string) => layers.findIndex((l) => l.includes(name));

function packageDir(name: string): string {
  for (const top of ["packages", "apps"])
    if (statSync(join(root, top, name), { throwIfNoEntry: false })) return join(root, top, name);
  throw new Error(`no package folder ${name}`);
}

describe("package layers", () => {
  it("lists every workspace package", () => {
    const all = ["packages", "apps"].flatMap((top) => readdirSync(join(root, top)));
    expect(all.sort()).toEqual(PACKAGE_LAYERS.flat().sort());
  });

  it("has no dependency on a package of its own or a higher layer", () => {
    const upward: string[] = [];
    for (const name of PACKAGE_LAYERS.flat()) {
      const pkg = JSON.parse(readFileSync(join(packageDir(name), "package.json"), "utf8"));
      for (const dep of Object.keys(pkg.dependencies ?? {})) {
        if (!dep.startsWith("@merchantkit/")) continue;
        const target = dep.slice("@merchantkit/".length);
        if (rank(PACKAGE_LAYERS, target) >= rank(PACKAGE_LAYERS, name))
          upward.push(`${name} -> ${target}`);
      }
    }
    expect(upward).toEqual([]);
  });
});

const src = join(root, "apps", "reconciler", "src");
const isTestSupport = (file: string) => {
  const name = file.split("/").pop() ?? "";
  return name.endsWith(".test.ts") || file.includes("/testing/");
};

function productionFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return productionFiles(path);
    return name.endsWith(".ts") && !isTestSupport(path) ? [path] : [];
  });
}

const COMMENTS = /\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm;
const IMPORT = /(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g;

/** Each production file of `dir` with the files it imports (relative imports, resolved to .ts paths). */
function importGraph(dir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of productionFiles(dir)) {
    // Comments left out: one may quote an import (`import * as c from "../codec"`).
    const text = readFileSync(file, "utf8").replace(COMMENTS, "");
    const targets = [...text.matchAll(IMPORT)].map((m) => {
      const path = resolve(dirname(file), m[1] as string);
      return statSync(`${path}.ts`, { throwIfNoEntry: false })
        ? `${path}.ts`
        : join(path, "index.ts");
    });
    graph.set(file, targets);
  }
  return graph;
}

/** The folder a file of src/ belongs to: its first path part, "." for files directly in src/. */
function folderOf(file: string): string {
  const parts = relative(src, file).split("/");
  if (parts.length === 1) return parts[0] === "index.ts" ? "index.ts" : ".";
  return parts[0] as string;
}

describe("reconciler layers", () => {
  const graph = importGraph(src);

  it("places every folder in a layer", () => {
    const folders = new Set([...graph.keys()].map(folderOf));
    for (const f of folders) expect(rank(RECONCILER_LAYERS, f), f).toBeGreaterThanOrEqual(0);
  });

  it("imports only from its own folder or a lower layer", () => {
    const upward: string[] = [];
    for (const [file, targets] of graph) {
      const from = folderOf(file);
      for (const target of targets) {
        const to = folderOf(target);
        if (to !== from && rank(RECONCILER_LAYERS, to) >= rank(RECONCILER_LAYERS, from))
          upward.push(`${relative(src, file)} -> ${relative(src, target)}`);
      }
    }
    expect(upward).toEqual([]);
  });
});

/** The circles of imports between the production files of one graph, each as a path. */
function circlesOf(graph: Map<string, string[]>): string[] {
  const state = new Map<string, "open" | "done">();
  const circles: string[] = [];
  const visit = (file: string, path: string[]) => {
    if (state.get(file) === "done") return;
    if (state.get(file) === "open") {
      circles.push(
        [...path.slice(path.indexOf(file)), file].map((f) => relative(root, f)).join(" -> "),
      );
      return;
    }
    state.set(file, "open");
    for (const target of graph.get(file) ?? [])
      if (graph.has(target)) visit(target, [...path, file]);
    state.set(file, "done");
  };
  for (const file of graph.keys()) visit(file, []);
  return circles;
}

describe("no circle of imports between files", () => {
  // Type-only imports count: a circle of types is still two files that must be read together.
  it.each(PACKAGE_LAYERS.flat())("%s", (name) => {
    expect(circlesOf(importGraph(join(packageDir(name), "src")))).toEqual([]);
  });
});
