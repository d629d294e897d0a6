// Every relative link in every README and docs page resolves to a file of the repository (a
// link to a missing section file or an ASSUMPTIONS.md that does not exist fails here).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..");
const SKIP = new Set(["node_modules", ".git", "dist", ".tsbuild", ".turbo", ".data"]);

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIP.has(name)) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith(".md") ? [path] : [];
  });
}

// [text](target) and [text](<target>), outside code spans and fenced blocks.
const LINK = /\[[^\]]*\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)/g;

/** The relative link targets of a markdown file, with their line numbers. */
function relativeLinks(file: string): { line: number; target: string }[] {
  const out: { line: number; target: string }[] = [];
  let fenced = false;
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((text, i) => {
      if (/^\s*(```|~~~)/.test(text)) fenced = !fenced;
      if (fenced) return;
      for (const match of text.replace(/`[^`]*`/g, "").matchAll(LINK)) {
        const target = match[1] as string;
        if (/^([a-z][a-z0-9+.-]*:|#)/i.test(target)) continue; // a URL, mailto or an anchor
        out.push({ line: i + 1, target });
      }
    });
  return out;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors a markdown file's headings give (a repeated heading gets -1, -2, ...). */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const text of readFileSync(file, "utf8").split("\n")) {
    if (/^\s*(```|~~~)/.test(text)) fenced = !fenced;
    const heading = fenced ? undefined : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

// A file named in prose ("see generator/ASSUMPTIONS.md"): it must exist next to the page, at
// the repository root, or in the page's package.
// The project owners' documents, kept beside the repository (not in it): named, not linked.
const OUTSIDE = new Set([
  "design.md",
  "spec/service-interface.md",
  "spec/provider-notes.md",
  "service-interface.md",
  "provider-notes.md",
]);

const NAMED_FILE = /(?<![\w/.:-])((?:\.{1,2}\/)?[\w.-]+(?:\/[\w.-]+)*\.md)\b/g;

describe("documentation links", () => {
  const files = markdownFiles(root);

  it("finds the READMEs and docs", () => {
    const names = files.map((f) => relative(root, f));
    expect(names).toContain("README.md");
    expect(names).toContain("docs/reconciler.md");
    expect(names).toContain("packages/sandbox/README.md");
  });

  it("resolves every relative link to a file that exists", () => {
    const broken = files.flatMap((file) =>
      relativeLinks(file)
        .filter(({ target }) => {
          const path = decodeURIComponent(target.split("#")[0] as string);
          return path !== "" && !existsSync(resolve(dirname(file), path));
        })
        .map(({ line, target }) => `${relative(root, file)}:${line} → ${target}`),
    );
    expect(broken).toEqual([]);
  });

  it("points every anchor at a heading of its page", () => {
    const broken = files.flatMap((file) =>
      relativeLinks(file)
        .concat(
          [...readFileSync(file, "utf8").matchAll(/\]\((#[^)\s]+)\)/g)].map((m) => ({
            line: 0,
            target: m[1] as string,
          })),
        )
        .filter(({ target }) => target.includes("#"))
        .filter(({ target }) => {
          const [path, anchor] = target.split("#") as [string, string];
          const page = path === "" ? file : resolve(dirname(file), decodeURIComponent(path));
          return page.endsWith(".md") && existsSync(page) && !anchors(page).has(anchor);
        })
        .map(({ target }) => `${relative(root, file)} → ${target}`),
    );
    expect(broken).toEqual([]);
  });

  it("names in prose only markdown files that exist", () => {
    const broken = files.flatMap((file) => {
      let fenced = false;
      return readFileSync(file, "utf8")
        .split("\n")
        .flatMap((text, i) => {
          if (/^\s*(```|~~~)/.test(text)) fenced = !fenced;
          if (fenced) return [];
          return [...text.replace(/\]\([^)]*\)|https?:\/\/\S+/g, "").matchAll(NAMED_FILE)]
            .map((m) => m[1] as string)
            .filter((name) => !OUTSIDE.has(name))
            .filter((name) => {
              const packageDir = file
                .split("/")
                .slice(0, root.split("/").length + 2)
                .join("/");
              return ![dirname(file), root, packageDir].some((dir) =>
                existsSync(resolve(dir, name)),
              );
            })
            .map((name) => `${relative(root, file)}:${i + 1} names ${name}`);
        });
    });
    expect(broken).toEqual([]);
  });
});
