/**
 * Throughput of the sandbox over HTTP: account getDetail (apikey + x-timestamp auth, lossless
 * parse, decode, idempotency store, handler, encode, envelope, request log) with keep-alive and
 * 32 requests in flight, against a bare node:http server answering the same JSON text. Both run
 * in CHILD processes, so the load generator (this process) does not share their CPU; rounds are
 * interleaved so machine noise hits both alike. Goal: ≥ 5,000 req/s for the sandbox on 2 cores.
 * The load comes from node:http with a keep-alive agent rather than fetch: on a small machine
 * fetch's own per-request cost caps it near 2,000 req/s, which would measure the client.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { Agent, request as httpRequest } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type CaseResult, printTable } from "./harness";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const IN_FLIGHT = 32;
const ROUND_MS = 1_500;
const ROUNDS = 4;
const PATH = "/account-server/api/v1/account/global/getDetail";

// The baseline: node:http answering a fixed JSON text, nothing else.
const BARE_SERVER = `
const http = require("node:http");
const text = process.env.ANSWER;
const server = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    res.writeHead(200, { "Content-Type": "application/json;charset=UTF-8", "Content-Length": Buffer.byteLength(text) });
    res.end(text);
  });
});
server.keepAliveTimeout = 10000;
server.listen(0, "127.0.0.1", () => console.log("listening on http://127.0.0.1:" + server.address().port));
`;

interface Child {
  process: ChildProcess;
  url: string;
  output: string;
}

/** Spawns a server and waits for the line announcing its origin. */
function spawnServer(args: string[], env: Record<string, string> = {}): Promise<Child> {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[\d.]+:\d+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        // Let the child's output drain so a full pipe never blocks it; the URL is all we need.
        resolve({ process: child, url: match[1], output });
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
}

function credential(output: string, label: string): string {
  const match = new RegExp(`${label}\\s+(\\S+)`).exec(output);
  if (!match?.[1]) throw new Error(`no ${label} in the sandbox's banner:\n${output}`);
  return match[1];
}

/** A Global Account the account area seeded for the merchant (ids are strings in admin JSON). */
async function seededGlobalAccount(origin: string): Promise<string> {
  const res = await fetch(`${origin}/__sandbox/account/global-accounts`);
  const body = (await res.json()) as { globalAccounts?: { globalAccountId: string }[] };
  const id = body.globalAccounts?.[0]?.globalAccountId;
  if (!id) throw new Error("the sandbox has no seeded Global Account to read");
  return id;
}

let seq = 0;

interface Answer {
  status: number;
  text: string;
}

/** One getDetail call on a keep-alive connection of `agent`; the answer is read to the end. */
function call(
  agent: Agent,
  origin: string,
  apiKey: string,
  globalAccountId: string,
): Promise<Answer> {
  const url = new URL(origin);
  const body = `{"requestId":"bench-${++seq}","globalAccountId":"${globalAccountId}"}`;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: PATH,
        method: "POST",
        agent,
        headers: {
          "Content-Type": "application/json",
          "Content-Length": Buffer.byteLength(body),
          apikey: apiKey,
          "x-timestamp": String(Date.now()),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** Requests completed in `ms` with IN_FLIGHT workers; any non-200 answer stops the run. */
async function load(
  send: () => Promise<Answer>,
  ms: number,
): Promise<{ done: number; ms: number }> {
  const started = performance.now();
  const deadline = started + ms;
  let done = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      const res = await send();
      if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${res.text.slice(0, 200)}`);
      done++;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return { done, ms: performance.now() - started };
}

export async function run(): Promise<void> {
  const sandbox = await spawnServer([
    "--conditions=@merchantkit/source",
    "--import",
    "tsx",
    "packages/sandbox/src/bin.ts",
    "--port",
    "0",
  ]);
  let bare: Child | undefined;
  try {
    const apiKey = credential(sandbox.output, "account apikey");
    const globalAccountId = await seededGlobalAccount(sandbox.url);
    const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
    const sample = await call(agent, sandbox.url, apiKey, globalAccountId);
    const answer = sample.text;
    if (!answer.includes('"respCode":"20000"')) throw new Error(`getDetail failed: ${answer}`);
    console.log(`sandbox answer (${answer.length} bytes): ${answer.slice(0, 160)}…`);
    bare = await spawnServer(["-e", BARE_SERVER], { ANSWER: answer });
    const bareUrl = bare.url;
    const cases = [
      {
        name: `bare node:http (${IN_FLIGHT} in flight)`,
        send: () => call(agent, bareUrl, apiKey, "1"),
      },
      {
        name: `sandbox getDetail (${IN_FLIGHT} in flight)`,
        send: () => call(agent, sandbox.url, apiKey, globalAccountId),
      },
    ];
    const totals = cases.map(() => ({ done: 0, ms: 0 }));
    for (const c of cases) await load(c.send, 500); // warm-up: JIT, connections
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, c] of cases.entries()) {
        const t = await load(c.send, ROUND_MS);
        const total = totals[i] as { done: number; ms: number };
        total.done += t.done;
        total.ms += t.ms;
      }
    }
    const results: CaseResult[] = cases.map((c, i) => {
      const t = totals[i] as { done: number; ms: number };
      return {
        name: c.name,
        opsPerSec: (t.done / t.ms) * 1000,
        nsPerOp: (t.ms * 1e6) / t.done,
        ratio: 0,
      };
    });
    const base = results[0]?.nsPerOp ?? 1;
    for (const r of results) r.ratio = r.nsPerOp / base;
    printTable(
      "HTTP throughput: sandbox vs bare node:http, keep-alive, servers in child processes",
      "req",
      results,
    );
    const sandboxRate = results[1]?.opsPerSec ?? 0;
    agent.destroy();
    console.log(
      `sandbox: ${Math.round(sandboxRate).toLocaleString("en-US")} req/s (goal ≥ 5,000 on 2 cores: ${sandboxRate >= 5_000 ? "met" : "NOT met"})`,
    );
  } finally {
    bare?.process.kill();
    sandbox.process.kill();
  }
}
