/**
 * Proves every package is publishable on its own: `pnpm pack` each one, install the tarballs
 * into a scratch project outside the workspace with npm, then import each package there with
 * plain Node (no source condition, no workspace links), require it from CommonJS, check each
 * tarball's LICENSE and export targets, and type-check an import with tsc (skipLibCheck off,
 * nodenext and bundler resolution).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Pkg, packAll, publicPackages, root, run } from "./pack-workspace";

const scratch = join(tmpdir(), `merchantkit-pack-check-${process.pid}`);
const tarballs = join(scratch, "tarballs");
mkdirSync(tarballs, { recursive: true });

const pkgs = publicPackages(["packages"]);
const files = packAll(pkgs, tarballs);

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

/**
 * An entry point only the workspace resolves (its one condition is @merchantkit/source, as a
 * package's `./testing` test support): not published, so not checked from the tarball.
 */
const sourceOnly = (target: unknown) =>
  typeof target === "object" &&
  target !== null &&
  Object.keys(target).length > 0 &&
  Object.keys(target).every((condition) => condition === "@merchantkit/source");

const subpaths = (pkg: Pkg) =>
  Object.entries(pkg.exports ?? { ".": {} })
    .filter(([k, target]) => !k.endsWith(".json") && !sourceOnly(target))
    .map(([k]) => (k === "." ? pkg.name : `${pkg.name}/${k.slice(2)}`));

const specifiers = pkgs.flatMap(subpaths);
const importCheck = specifiers
  .map(
    (s, i) =>
      `import * as m${i} from "${s}";\nif (Object.keys(m${i}).length === 0) throw new Error("${s} exports nothing");\nconsole.log("imported ${s}: " + Object.keys(m${i}).length + " exports");`,
  )
  .join("\n");
writeFileSync(join(scratch, "check.mjs"), importCheck);
process.stdout.write(run("node", ["check.mjs"], scratch));

// CommonJS consumers: require() of every entry point (Node >= 20.19 loads the ESM build through
// the `default` condition).
writeFileSync(
  join(scratch, "check.cjs"),
  specifiers
    .map(
      (s) =>
        `if (Object.keys(require("${s}")).length === 0) throw new Error("require(${s}) gave nothing");`,
    )
    .join("\n"),
);
run("node", ["check.cjs"], scratch);
console.log(`required ${specifiers.length} entry points from CommonJS`);

// What was published: a LICENSE in every tarball, and every export condition pointing at a file
// the package holds (the workspace-only @merchantkit/source condition, pointing at src/, is not
// published).
for (const pkg of pkgs) {
  const installed = join(scratch, "node_modules", pkg.name);
  if (!existsSync(join(installed, "LICENSE"))) throw new Error(`${pkg.name} ships no LICENSE`);
  const published = JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as Pkg;
  const targets = (value: unknown): string[] =>
    typeof value === "string"
      ? [value]
      : value && typeof value === "object"
        ? Object.values(value).flatMap(targets)
        : [];
  for (const target of targets(published.exports))
    if (!existsSync(join(installed, target)))
      throw new Error(`${pkg.name} exports ${target}, which its tarball does not hold`);
}
console.log(`every tarball ships its LICENSE and the files its exports name`);

writeFileSync(
  join(scratch, "check.ts"),
  specifiers
    .map((s, i) => `import * as t${i} from "${s}";\nexport const u${i} = t${i};`)
    .join("\n"),
);
run(
  "npm",
  ["install", "--no-audit", "--no-fund", "--loglevel=error", "--no-save", `@types/node@20`],
  scratch,
);
// A consumer's type check of every entry point without skipLibCheck, under both resolutions
// merchants use: Node's (nodenext) and a bundler's.
for (const [module, moduleResolution] of [
  ["nodenext", "nodenext"],
  ["esnext", "bundler"],
]) {
  writeFileSync(
    join(scratch, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        module,
        moduleResolution,
        strict: true,
        noEmit: true,
        types: ["node"],
        skipLibCheck: false,
      },
      files: ["check.ts"],
    }),
  );
  run(join(root, "node_modules/.bin/tsc"), ["-p", "tsconfig.json"], scratch);
}
console.log(`types resolve for ${specifiers.length} entry points (nodenext and bundler)`);

rmSync(scratch, { recursive: true, force: true });
console.log(`pack check passed for ${pkgs.length} packages`);
