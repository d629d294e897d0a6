// Every TypeScript block of every package README compiles against the packages as they are: a
// README that imports a name its package does not export, or calls a method that does not
// exist, fails here instead of in a merchant's first hour. Each block is one module, checked
// with the workspace's settings. What a block takes from the reader (the client an earlier
// block made, an id from their own data) is declared in the README's
// `<!-- ts-prelude: declare const name: Type; -->` comment; a block gets each declaration whose
// name it does not declare or import itself.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..");
const READMES = [
  ...readdirSync(join(root, "packages")).map((p) => join("packages", p, "README.md")),
  join("apps", "reconciler", "README.md"),
].filter((readme) => existsSync(join(root, readme)));

/** The ```ts / ```typescript blocks of a markdown text, with the line each starts on. */
function typescriptBlocks(text: string): { line: number; code: string }[] {
  const out: { line: number; code: string }[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript)\s*$/.test(lines[i] as string)) continue;
    const start = i + 1;
    while (i + 1 < lines.length && !(lines[i + 1] as string).startsWith("```")) i++;
    out.push({ line: start + 1, code: lines.slice(start, i + 1).join("\n") });
    i++;
  }
  return out;
}

interface Module {
  file: string;
  readme: string;
  /** The README line the block starts on, and how many prelude lines come before it. */
  line: number;
  offset: number;
}

/** `declare const name…;` lines of the README's ts-prelude comments, by name. */
function preludeOf(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(/<!-- ts-prelude:([\s\S]*?)-->/g))
    for (const decl of (m[1] as string).split(";").map((d) => d.trim()))
      if (decl)
        out.set(/^declare\s+(?:const|function|let)\s+(\w+)/.exec(decl)?.[1] ?? decl, `${decl};`);
  return out;
}

/** Whether the block declares or imports `name` itself. */
function declares(code: string, name: string): boolean {
  const own = `(?:const|let|var|function|class)\\s+${name}\\b`;
  const destructured = `(?:const|let|var)\\s*[{[][^=]*\\b${name}\\b[^=]*[}\\]]\\s*=`;
  const imported = `import[^;]*\\b${name}\\b[^;]*from`;
  return new RegExp(`${own}|${destructured}|${imported}`).test(code);
}

function modulesOf(readme: string): { module: Module; text: string }[] {
  const text = readFileSync(join(root, readme), "utf8");
  const prelude = preludeOf(text);
  return typescriptBlocks(text).map((block) => {
    const given = [...prelude].filter(([name]) => !declares(block.code, name)).map(([, d]) => d);
    const file = `${readme.replaceAll("/", "_")}_${block.line}.ts`;
    return {
      module: { file, readme, line: block.line, offset: given.length },
      text: `${[...given, block.code].join("\n")}\nexport {};\n`,
    };
  });
}

/** "file.ts(12,5): error TS…" → "README.md:line error TS…". */
function located(modules: Module[], line: string): string {
  const match = /([^/\s(]+\.ts)\((\d+),\d+\): (error TS.*)$/.exec(line);
  const module = modules.find((m) => m.file === match?.[1]);
  if (!match || !module) return line;
  return `${module.readme}:${module.line + Number(match[2]) - 1 - module.offset} ${match[3]}`;
}

describe("README code blocks", () => {
  it("compile against the packages", () => {
    const folder = join(root, "scripts", `.readme-check-${process.pid}`);
    mkdirSync(folder, { recursive: true });
    try {
      const modules: Module[] = [];
      for (const readme of READMES)
        for (const built of modulesOf(readme)) {
          writeFileSync(join(folder, built.module.file), built.text);
          modules.push(built.module);
        }
      expect(modules.length).toBeGreaterThan(20);
      writeFileSync(
        join(folder, "tsconfig.json"),
        JSON.stringify({
          extends: "../../tsconfig.base.json",
          compilerOptions: {
            composite: false,
            declaration: false,
            declarationMap: false,
            emitDeclarationOnly: false,
            noEmit: true,
          },
          files: modules.map((m) => m.file),
        }),
      );
      let output = "";
      try {
        execFileSync(join(root, "node_modules/.bin/tsc"), ["-p", folder], { encoding: "utf8" });
      } catch (error) {
        output = String((error as { stdout?: string }).stdout ?? error);
      }
      const errors = output
        .split("\n")
        .filter((l) => l.includes("error TS"))
        .map((l) => located(modules, l));
      expect(errors).toEqual([]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);
});
