/**
 * The sandbox as a large data source.
 *
 * (a) Generating 1,000,000 card transactions (with their cards, operations, 3DS deliveries and
 *     ledger postings): seconds, records/s and peak RSS, next to a baseline that only allocates
 *     1,000,000 plain objects of the card transaction record's shape. Each case runs in its
 *     own child process, so each peak RSS is its own.
 * (b) queryTxnList pages of 100 records for the 30-day window, all over it, served over HTTP
 *     by a running sandbox (startSandbox) holding 10,000 and 1,000,000 card transactions:
 *     pages/s at both sizes and their ratio (a page must cost about the same at both), plus
 *     the area's handler called in process, to show what HTTP, encoding and JSON add. One
 *     request at a time, client and server in this process: each page's time is the client's
 *     plus the server's.
 * (c) The server's throughput: the sandbox bin in its own process at each size, with a few
 *     requests in flight from this one (as the small-endpoint figure in sandbox-http is
 *     measured), so the server's core is busy serving while the client uses the other.
 */
import { spawnSync } from "node:child_process";
import http from "node:http";
import { fileURLToPath } from "node:url";
import { stringifyJson } from "../packages/core/src/json/stringify-json";
import { generateData } from "../packages/sandbox/src/generator/generate-data";
import { createIssuingArea, type IssuingArea } from "../packages/sandbox/src/issuing/issuing-area";
import type { AnyHandler } from "../packages/sandbox/src/runtime/area";
import { type RunningSandbox, startSandbox } from "../packages/sandbox/src/start-sandbox";
import { inProcessRuntime, TEST_NOW } from "../packages/sandbox/src/testing/sandbox-client";
import { compare } from "./harness";
import { bannerValue, spawnSandbox } from "./sandbox-child";

const RECORDS = 1_000_000;
const CHILD = "SANDBOX_DATA_BENCH_CHILD";
const DAY = 86_400_000;
const MB = 1024 * 1024;

interface ChildResult {
  seconds: number;
  records: number;
  peakRssMb: number;
}

// A plain object of the card transaction record's shape, as an app-form record would be.
function plainRecord(i: number): Record<string, unknown> {
  const time = 1_717_000_000_000 + i * 2_593;
  const cents = 300 + ((i * 7919) % 20_000);
  const amount = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
  return {
    txnType: "CLEARING",
    txnStatus: "S",
    txnOrderNo: `T${String(i).padStart(15, "0")}`,
    originTxnOrderNo: `T${String(i - 1).padStart(15, "0")}`,
    originTxnOrderNoForRefund: undefined,
    cardId: "1953712585351499776",
    authTime: time - 3_600_000,
    authorizationCode: "A1B2C3",
    authMessageDesc: undefined,
    transactionAmount: amount,
    transactionCurrency: "USD",
    transactionTime: time,
    cardAmount: amount,
    cardCurrency: "USD",
    settleAmount: amount,
    settleCurrency: "USD",
    settleTime: time,
    transactionFee: undefined,
    transactionFeeCurrency: undefined,
    crossBorderFee: undefined,
    crossBorderFeeCurrency: undefined,
    exchangeFee: undefined,
    exchangeFeeCurrency: undefined,
    merchantId: "MID4100000",
    merchantName: "AMAZON MKTPLACE PMTS",
    merchantCountry: "United States",
    merchantCountryCode: "US",
    merchantStateProvince: "WA",
    merchantCity: "Seattle",
    merchantPostalCode: "98109",
    merchantMccCode: "5942",
  };
}

function childTask(task: string): ChildResult {
  const start = performance.now();
  let records = 0;
  let keep: unknown;
  if (task === "baseline") {
    const all = new Array(RECORDS);
    for (let i = 0; i < RECORDS; i++) all[i] = plainRecord(i);
    records = all.length;
    keep = all;
  } else {
    const { runtime } = inProcessRuntime();
    const area = createIssuingArea(runtime);
    const summary = generateData(runtime, area.state, {
      seed: 1,
      cards: RECORDS / 100,
      cardTransactions: RECORDS,
      days: 30,
    });
    records = summary.cardTransactions;
    keep = area;
  }
  const seconds = (performance.now() - start) / 1000;
  if (!keep) throw new Error("nothing was kept");
  return { seconds, records, peakRssMb: (process.resourceUsage().maxRSS * 1024) / MB };
}

if (process.env[CHILD]) {
  process.stdout.write(JSON.stringify(childTask(process.env[CHILD] as string)));
  process.exit(0);
}

function inChild(task: string): ChildResult {
  const out = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
    env: { ...process.env, [CHILD]: task },
    encoding: "utf8",
    maxBuffer: 1 << 20,
  });
  if (out.status !== 0) throw new Error(`${task} child failed: ${out.stderr}`);
  return JSON.parse(out.stdout.trim().split("\n").pop() as string) as ChildResult;
}

// node:http with one keep-alive socket: a lighter client than fetch, so the figure is mostly
// the sandbox's own cost (decode, handler, encode, lossless JSON, HTTP).
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function request(
  url: string,
  apiKey: string,
  body: string,
  through: http.Agent = agent,
): Promise<string> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: "POST",
        agent: through,
        headers: {
          "Content-Type": "application/json",
          "Content-Length": Buffer.byteLength(body),
          ApiKey: apiKey,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

// The whole 30-day window, pages all over it (full pages only: a window with fewer records
// than pages asked would time empty pages at the small size).
const startTime = (TEST_NOW - 30 * DAY) / 1000;
const endTime = TEST_NOW / 1000;
const pageNums = (records: number) => {
  const pages = Math.floor(records / 100);
  let n = 0;
  return () => 1 + ((n++ * 7_919) % pages);
};
const pageBody = (pageNum: number) => stringifyJson({ startTime, endTime, pageNum, pageSize: 100 });

const IN_FLIGHT = 4;
const THROUGHPUT_MS = 4_000;

/**
 * Pages/s served by the sandbox bin in a CHILD process holding `records` card transactions,
 * with IN_FLIGHT requests kept in flight on keep-alive connections: the server's throughput,
 * as a service is measured, with the load generator's CPU on the other core.
 */
async function childThroughput(records: number): Promise<number> {
  const child = await spawnSandbox();
  const load = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  try {
    const admin = async (path: string, body: unknown) => {
      const res = await fetch(`${child.url}/__sandbox${path}`, {
        method: "POST",
        body: stringifyJson(body),
      });
      if (!res.ok) throw new Error(`${path} failed: ${await res.text()}`);
    };
    await admin("/clock/freeze", { at: TEST_NOW });
    await admin("/issuing/generate", {
      seed: 1,
      cards: Math.max(10, records / 100),
      cardTransactions: records,
      days: 30,
    });
    const url = `${child.url}/api/v1/merchant/queryTxnList`;
    const apiKey = bannerValue(child.output, "issuing ApiKey");
    const next = pageNums(records);
    const run = async (ms: number) => {
      const until = performance.now() + ms;
      let pages = 0;
      await Promise.all(
        Array.from({ length: IN_FLIGHT }, async () => {
          while (performance.now() < until) {
            const res = await request(url, apiKey, pageBody(next()), load);
            if (!res.startsWith('{"respCode":"20000"')) throw new Error(res.slice(0, 200));
            pages++;
          }
        }),
      );
      return pages;
    };
    await run(1_000); // warm-up: JIT, and the collection that follows generating
    const start = performance.now();
    const pages = await run(THROUGHPUT_MS);
    return pages / ((performance.now() - start) / 1000);
  } finally {
    load.destroy();
    child.process.kill();
  }
}

async function sandboxWith(records: number): Promise<RunningSandbox> {
  const sandbox = await startSandbox();
  const admin = (path: string, body: unknown) =>
    fetch(`${sandbox.url}/__sandbox${path}`, { method: "POST", body: stringifyJson(body) });
  await admin("/clock/freeze", { at: TEST_NOW });
  const res = await admin("/issuing/generate", {
    seed: 1,
    cards: Math.max(10, records / 100),
    cardTransactions: records,
    days: 30,
  });
  if (!res.ok) throw new Error(`generate failed: ${await res.text()}`);
  return sandbox;
}

export async function run(): Promise<void> {
  console.log(
    `\n## generate ${RECORDS.toLocaleString("en-US")} card transactions (own process each)`,
  );
  const base = inChild("baseline");
  const gen = inChild("generate");
  const row = (name: string, r: ChildResult) =>
    `${name.padEnd(34)} ${r.seconds.toFixed(2).padStart(8)} s ${Math.round(r.records / r.seconds)
      .toLocaleString("en-US")
      .padStart(
        12,
      )} rec/s ${Math.round(r.peakRssMb).toLocaleString("en-US").padStart(7)} MB peak RSS`;
  console.log(row("baseline: 1M plain record objects", base));
  console.log(row("generateData (whole data set)", gen));
  console.log(
    `ratio: ${(gen.seconds / base.seconds).toFixed(2)}× the time, ${(gen.peakRssMb / base.peakRssMb).toFixed(2)}× the peak RSS (goal: ≤ 20 s, ≤ 1,536 MB)`,
  );

  const small = await sandboxWith(10_000);
  const large = await sandboxWith(RECORDS);
  try {
    const page = (sandbox: RunningSandbox, records: number) => {
      const url = `${sandbox.url}/api/v1/merchant/queryTxnList`;
      const apiKey = sandbox.runtime().config.issuingApiKey;
      const next = pageNums(records);
      return async () => {
        // The wire body as a client sends it (no id or amount here, so plain numbers).
        const res = await request(url, apiKey, pageBody(next()));
        if (!res.startsWith('{"respCode":"20000"')) throw new Error(res.slice(0, 200));
      };
    };
    const handlerPage = (sandbox: RunningSandbox, records: number) => {
      const area = sandbox.areas().find((a) => a.name === "issuing") as IssuingArea;
      const handler = area.handlers.get("issuing.queryTxnList") as AnyHandler;
      const call = { merchantNo: sandbox.runtime().config.merchantNo, now: TEST_NOW };
      const next = pageNums(records);
      return () => {
        const data = handler({ startTime, endTime, pageNum: next(), pageSize: 100 }, call) as {
          records: unknown[];
        };
        if (data.records.length !== 100) throw new Error("not a full page");
      };
    };
    await compare({
      title: "queryTxnList, 100-record pages of a 30-day window, over HTTP (keep-alive)",
      unit: "page",
      baseline: { name: "HTTP, 10,000 records", fn: page(small, 10_000) },
      candidates: [{ name: "HTTP, 1,000,000 records", fn: page(large, RECORDS) }],
    });
    await compare({
      title: "the same pages from the area's handler in process (no HTTP, no encoding)",
      unit: "page",
      baseline: { name: "handler, 10,000 records", fn: handlerPage(small, 10_000) },
      candidates: [{ name: "handler, 1,000,000 records", fn: handlerPage(large, RECORDS) }],
    });
  } finally {
    agent.destroy();
    await small.close();
    await large.close();
  }

  console.log(
    `\n## queryTxnList throughput: the sandbox bin in a child process, ${IN_FLIGHT} requests in flight (keep-alive)`,
  );
  const perSize: [string, number][] = [];
  for (const records of [10_000, RECORDS]) {
    const rate = await childThroughput(records);
    perSize.push([records.toLocaleString("en-US"), rate]);
    console.log(
      `${`${records.toLocaleString("en-US")} records`.padEnd(20)} ${Math.round(rate).toLocaleString("en-US").padStart(7)} pages/s`,
    );
  }
  const [small10k, large1m] = perSize.map(([, rate]) => rate) as [number, number];
  console.log(
    `ratio (time per page, 1,000,000 vs 10,000): ${(small10k / large1m).toFixed(2)}×; goal ≥ 1,000 pages/s at both: ${Math.min(small10k, large1m) >= 1_000 ? "met" : "NOT met"}`,
  );
}
