/**
 * Proves the worker installs and runs as a merchant gets it: `npm i` of the packed
 * @merchantkit/reconciler tarball alone (its @merchantkit dependencies from their tarballs) in a
 * scratch project, with none of the workspace's tools or demo code in it (no sandbox,
 * TypeScript, tsx, drizzle-kit; hono is the console's and the webhook receiver's own); then
 * the installed `reconciler help`, and one
 * `reconciler run` (ledger folder in, sync, match, report) against a new database on the
 * Postgres server of DATABASE_URL, with a sandbox this script starts as the service.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createScratchDatabase } from "@merchantkit/reconciler";
import { writeLedger } from "@merchantkit/reconciler/testing";
import { type GroundTruth, startSandbox } from "@merchantkit/sandbox";
import { packAll, publicPackages, run } from "./pack-workspace";

const server = process.env.DATABASE_URL;
if (!server) throw new Error("check-worker-pack needs DATABASE_URL (a Postgres server)");

const scratch = join(tmpdir(), `merchantkit-worker-pack-${process.pid}`);
const tarballs = join(scratch, "tarballs");
const project = join(scratch, "worker");
mkdirSync(tarballs, { recursive: true });
mkdirSync(project, { recursive: true });

const files = packAll(publicPackages(["packages", "apps"]), tarballs);
const worker = files["@merchantkit/reconciler"];
if (!worker) throw new Error("@merchantkit/reconciler was not packed: is it still private?");
writeFileSync(
  join(project, "package.json"),
  JSON.stringify({
    name: "worker",
    private: true,
    dependencies: { "@merchantkit/reconciler": worker },
    overrides: files,
  }),
);
run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], project);

const unwanted = ["@merchantkit/sandbox", "@merchantkit/demo", "typescript", "tsx", "drizzle-kit"];
const present = unwanted.filter((name) => existsSync(join(project, "node_modules", name)));
if (present.length > 0) throw new Error(`the installed worker pulls in ${present.join(", ")}`);
console.log(`installed worker holds none of: ${unwanted.join(", ")}`);

const bin = join(project, "node_modules", ".bin", "reconciler");
const help = run(bin, ["help"], project);
if (!help.includes("reconciler <command>")) throw new Error(`reconciler help printed:\n${help}`);
console.log("installed `reconciler help` answers");

// The service: a sandbox with generated data, its clock behind real time so every record is past.
const sandbox = await startSandbox({ timestampSkewMs: 366 * 86_400_000 });
const database = await createScratchDatabase(server, "mk_worker_pack");
try {
  const now = Math.floor((Date.now() - 2 * 3_600_000) / 1000) * 1000;
  await sandbox.admin.freezeClock(now);
  const generated = await fetch(`${sandbox.url}/__sandbox/issuing/generate`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ seed: 3, cards: 20, cardTransactions: 300, days: 5 }),
  });
  if (!generated.ok) throw new Error(`generate: HTTP ${generated.status}`);
  // A clean ledger (nothing injected) dropped into the folder, old enough to be taken in.
  const truth = (await sandbox.admin.state()) as unknown as GroundTruth;
  const ledgerDir = join(scratch, "ledger");
  const reportDir = join(scratch, "reports");
  mkdirSync(ledgerDir);
  const ledgerFile = join(ledgerDir, "ledger.csv");
  writeFileSync(ledgerFile, writeLedger(truth, { seed: 3, discrepancies: [] }).csv);
  const minuteAgo = new Date(Date.now() - 60_000);
  utimesSync(ledgerFile, minuteAgo, minuteAgo);

  // Async: the sandbox answers from this process, which must not block while the run waits.
  const { stdout } = await promisify(execFile)(bin, ["run"], {
    cwd: project,
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: database.url,
      MERCHANTKIT_ENVIRONMENT: sandbox.url,
      ISSUING_API_KEY: "sandbox-issuing-api-key",
      ACCOUNT_API_KEY: "sandbox-account-api-key",
      PAYOUT_SECRET_KEY: "sandbox-secret-key",
      MERCHANT_NO: "M1000001",
      RECONCILER_START: new Date(now - 6 * 86_400_000).toISOString(),
      RECONCILER_LEDGER_DIR: ledgerDir,
      RECONCILER_REPORT_DIR: reportDir,
    },
  }).catch((error: { code?: number; stdout?: string; stderr?: string }) => {
    throw new Error(`reconciler run exited ${error.code}:\n${error.stdout}\n${error.stderr}`);
  });
  const summary = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as {
    verdict?: string;
    exitCode?: number;
  };
  if (summary.exitCode !== 0 || summary.verdict !== "reconciled")
    throw new Error(`reconciler run: ${stdout}`);
  for (const file of [join(ledgerDir, "imported", "ledger.csv"), join(reportDir, "report.html")])
    if (!existsSync(file)) throw new Error(`reconciler run left no ${file}`);
  if (!readFileSync(join(reportDir, "statement.csv"), "utf8").includes("currency"))
    throw new Error("statement.csv has no header");
  console.log("installed `reconciler run` took in the ledger, synced, matched: reconciled");
} finally {
  await sandbox.close();
  await database.drop();
  rmSync(scratch, { recursive: true, force: true });
}
console.log("worker pack check passed");
