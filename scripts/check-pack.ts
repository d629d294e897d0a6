/**
 * Proves every package is publishable on its own: `pnpm pack` each one, install the tarballs
 * into a scratch project outside the workspace with npm, then import each package there with
 * plain Node (no source condition, no workspace links) and type-check an import with tsc.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const scratch = join(tmpdir(), `merchantkit-pack-check-${process.pid}`);
const tarballs = join(scratch, "tarballs");
mkdirSync(tarballs, { recursive: true });

interface Pkg {
  name: string;
  dir: string;
  private?: boolean;
  exports?: Record<string, unknown>;
}

const pkgs: Pkg[] = readdirSync(join(root, "packages"))
  .map((d) => join(root, "packages", d))
  .filter((dir) => existsSync(join(dir, "package.json")))
  .map((dir) => ({ ...(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Pkg), dir }))
  .filter((p) => !p.private);

const run = (cmd: string, args: string[], cwd: string) =>
  execFileSync(cmd, args, { cwd, stdio: ["ignore", "pipe", "inherit"], encoding: "utf8" });

const files: Record<string, string> = {};
for (const pkg of pkgs) {
  const out = run("pnpm", ["pack", "--pack-destination", tarballs], pkg.dir).trim().split("\n");
  const tgz = out[out.length - 1] ?? "";
  files[pkg.name] = `file:${tgz}`;
  console.log(`packed ${pkg.name} → ${tgz.replace(`${scratch}/`, "")}`);
}

// overrides: a package's dependency on another @merchantkit package resolves to its tarball too.
writeFileSync(
  join(scratch, "package.json"),
  JSON.stringify(
    { name: "scratch", private: true, type: "module", dependencies: files, overrides: files },
    null,
    2,
  ),
);
run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], scratch);

const subpaths = (pkg: Pkg) =>
  Object.keys(pkg.exports ?? { ".": {} })
    .filter((k) => !k.endsWith(".json"))
    .map((k) => (k === "." ? pkg.name : `${pkg.name}/${k.slice(2)}`));

const specifiers = pkgs.flatMap(subpaths);
const importCheck = specifiers
  .map(
    (s, i) =>
      `import * as m${i} from "${s}";\nif (Object.keys(m${i}).length === 0) throw new Error("${s} exports nothing");\nconsole.log("imported ${s}: " + Object.keys(m${i}).length + " exports");`,
  )
  .join("\n");
writeFileSync(join(scratch, "check.mjs"), importCheck);
process.stdout.write(run("node", ["check.mjs"], scratch));

writeFileSync(
  join(scratch, "check.ts"),
  specifiers
    .map((s, i) => `import * as t${i} from "${s}";\nexport const u${i} = t${i};`)
    .join("\n"),
);
writeFileSync(
  join(scratch, "tsconfig.json"),
  JSON.stringify({
    compilerOptions: {
      module: "nodenext",
      moduleResolution: "nodenext",
      strict: true,
      noEmit: true,
      types: ["node"],
      skipLibCheck: false,
    },
    files: ["check.ts"],
  }),
);
run(
  "npm",
  ["install", "--no-audit", "--no-fund", "--loglevel=error", "--no-save", `@types/node@20`],
  scratch,
);
run(join(root, "node_modules/.bin/tsc"), ["-p", "tsconfig.json"], scratch);
console.log(`types resolve for ${specifiers.length} entry points`);

rmSync(scratch, { recursive: true, force: true });
console.log(`pack check passed for ${pkgs.length} packages`);
