/**
 * IssuingClient paging over HTTP: `for await` over 100,000 card transactions (queryTxnList,
 * 1,000 pages of 100) against bare ky paging of the same pages (ky.post + JSON.parse, no
 * validation, no lossless parsing), side by side; raw fetch paging is shown for reference. The
 * sandbox runs in a CHILD process with the data set generated on a frozen clock, so every case
 * reads identical pages and the sandbox's own CPU is not shared with the client under test.
 * Goal (issue 14 §5): for await ≤ 1.25× bare ky.
 */
import { IssuingClient } from "@merchantkit/issuing";
import ky from "ky";
import { compare } from "./harness";
import { spawnSandbox } from "./sandbox-child";

const RECORDS = 100_000;
const PAGE_SIZE = 100;
const GOAL = 1.25;

async function admin(origin: string, path: string, body: unknown): Promise<unknown> {
  const res = await fetch(`${origin}/__sandbox${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
  return res.json();
}

interface RawPage {
  respCode: string;
  data: { totalPages: number; totalRecords: number; records: unknown[] };
}

export async function run(): Promise<void> {
  const sandbox = await spawnSandbox();
  try {
    const apiKey = /issuing ApiKey\s+(\S+)/.exec(sandbox.output)?.[1] as string;
    const url = `${sandbox.url}/api/v1/merchant/queryTxnList`;
    // Frozen, so no scheduled clearing or refund adds records between the cases' passes.
    await admin(sandbox.url, "/clock/freeze", {});
    const started = performance.now();
    await admin(sandbox.url, "/issuing/generate", {
      seed: 7,
      cards: 1_000,
      cardTransactions: RECORDS,
      days: 30,
    });
    console.log(
      `generated ${RECORDS.toLocaleString("en-US")} card transactions in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    const headers = { "content-type": "application/json", ApiKey: apiKey };
    const checked = (text: string, pageNum: number): RawPage => {
      const page = JSON.parse(text) as RawPage;
      if (page.respCode !== "20000") throw new Error(`page ${pageNum}: ${page.respCode}`);
      return page;
    };
    const body = (pageNum: number) => JSON.stringify({ pageNum, pageSize: PAGE_SIZE });
    const rawPage = async (pageNum: number): Promise<RawPage> => {
      const res = await fetch(url, { method: "POST", headers, body: body(pageNum) });
      return checked(await res.text(), pageNum);
    };
    const kyPage = async (pageNum: number): Promise<RawPage> =>
      checked(await ky.post(url, { headers, body: body(pageNum) }).text(), pageNum);
    const pagesOf = (read: (pageNum: number) => Promise<RawPage>, what: string) => async () => {
      let count = 0;
      for (let pageNum = 1; pageNum <= pages; pageNum++) {
        count += (await read(pageNum)).data.records.length;
      }
      if (count !== RECORDS) throw new Error(`${what} paging saw ${count} records`);
    };
    const first = await rawPage(1);
    if (first.data.totalRecords !== RECORDS) {
      throw new Error(`expected ${RECORDS} records, the sandbox holds ${first.data.totalRecords}`);
    }
    const pages = first.data.totalPages;

    const client = new IssuingClient({ environment: { origin: sandbox.url }, apiKey });
    let seen = 0;
    const results = await compare({
      title: `queryTxnList, ${RECORDS.toLocaleString("en-US")} records in ${pages} pages of ${PAGE_SIZE}, sandbox in a child process`,
      unit: "record",
      opsPerCall: RECORDS,
      // One full pass per case per round; six rounds rather than four (~20 s more), as a pass
      // takes 2–3 s and load from other work on the shared machine moved single runs by ±0.1×.
      roundMs: 1,
      rounds: 6,
      baseline: { name: "bare ky + JSON.parse, page by page", fn: pagesOf(kyPage, "ky") },
      candidates: [
        {
          name: "IssuingClient transactions.list, for await",
          fn: async () => {
            seen = 0;
            for await (const _txn of client.transactions.list({ pageSize: PAGE_SIZE })) seen++;
            if (seen !== RECORDS) throw new Error(`for await saw ${seen} records`);
          },
        },
        { name: "raw fetch + JSON.parse (reference)", fn: pagesOf(rawPage, "raw") },
      ],
    });
    const ratio = results[1]?.ratio ?? Number.NaN;
    const rate = Math.round(results[1]?.opsPerSec ?? 0).toLocaleString("en-US");
    console.log(
      `for await: ${rate} records/s, ${ratio.toFixed(2)}× bare ky (goal ≤ ${GOAL}×: ${ratio <= GOAL ? "met" : "NOT met"})`,
    );
  } finally {
    sandbox.process.kill();
  }
}
