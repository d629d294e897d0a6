/**
 * What the payout client costs per call: `transfers.retrieve` (txn/query: request validation,
 * merchantNo fill, signing, lossless JSON both ways, envelope, response decode, ky) against a
 * bare ky call of the same signed request text (ky.post, read, JSON.parse, respCode check). The
 * sandbox runs in a CHILD process, so server work does not share this process's CPU; calls are
 * sequential (one in flight) and rounds interleaved. More rows: a raw fetch of the same request
 * (reference), the bare ky call signing its body each time with Web Crypto (reference) and the
 * client's in-process work alone (no HTTP). Goal (issue 14 §5): SDK ≤ 1.15×
 * the bare ky call.
 */
import { txnQuery } from "@merchantkit/contract";
import { parseJson, sign, stringifyJson } from "@merchantkit/core";
import { PayoutClient } from "@merchantkit/payout";
import ky from "ky";
import { compare } from "./harness";
import { bannerValue, spawnSandbox } from "./sandbox-child";

const GOAL = 1.15;

/** A payout to read: a wallet beneficiary (no review), a payer, one remittance. */
async function makePayout(payout: PayoutClient): Promise<string> {
  const { beneficiaryId } = await payout.beneficiaries.create({
    merchantRefId: "bench-1",
    bankCountry: "PH",
    payoutCurrency: "PHP",
    entityType: "1",
    paymentMethod: "E_WALLET",
    receiverInfo: { firstName: "Jose", lastName: "Rizal", areaCode: "63", phone: "9171234567" },
    address: { countryCode: "PH" },
    accountInfomation: { cardNumber: "09171234567", walletType: "GCASH" },
  });
  const payerId = await payout.payers.create({
    subEntityType: "1",
    country: "SG",
    firstName: "Grace",
    lastName: "Hopper",
  });
  const transfer = await payout.transfers.create({
    beneficiaryId,
    beneficiaryPaymentMethod: "E_WALLET",
    payerId,
    sourceCurrency: "USD",
    targetCurrency: "PHP",
    transactionPurpose: "family support",
    chargeFlag: "Y",
    targetAmount: "500.00",
  });
  return transfer.requestId;
}

export async function run(): Promise<void> {
  const sandbox = await spawnSandbox();
  try {
    const secretKey = bannerValue(sandbox.output, "secretKey");
    const merchantNo = bannerValue(sandbox.output, "merchantNo");
    const payout = new PayoutClient({
      environment: { origin: sandbox.url },
      secretKey,
      merchantNo,
      maxRetries: 0,
    });
    const requestId = await makePayout(payout);

    // The raw baseline sends exactly what the client sends: the same fields, signed the same way.
    const fields = { merchantNo, requestId };
    const text = stringifyJson({ ...fields, sign: await sign(fields, secretKey) });
    const url = `${sandbox.url}/payout${txnQuery.path}`;
    const headers = { "content-type": "application/json", accept: "application/json" };
    const checked = (answer: string) => {
      const body = JSON.parse(answer) as { respCode: string };
      if (body.respCode !== "20000") throw new Error(`txn/query failed: ${body.respCode}`);
    };
    const rawFetch = async () => {
      const res = await fetch(url, { method: "POST", headers, body: text });
      checked(await res.text());
    };
    const bareKy = async () => {
      checked(await ky.post(url, { headers, body: text }).text());
    };
    const sdk = async () => {
      await payout.transfers.retrieve({ requestId });
    };
    // The same bare call signing its body each time, as the client must (§2: Web Crypto, whose
    // digest is an asynchronous job): what signing itself costs per call, apart from the client.
    const bareKySigning = async () => {
      const signed = stringifyJson({ ...fields, sign: await sign(fields, secretKey) });
      checked(await ky.post(url, { headers, body: signed }).text());
    };

    // The client's own work without the network: validate, sign, write, parse, decode.
    const answer = await (await fetch(url, { method: "POST", headers, body: text })).text();
    // Through Standard Schema (valibot's `~standard`), so the bench needs no valibot import.
    const validate = <T>(
      schema: { "~standard": { validate(value: unknown): unknown } },
      value: unknown,
    ) => {
      const result = schema["~standard"].validate(value) as { value?: T; issues?: unknown };
      if (result.issues) throw new Error("validation failed");
      return result.value as T;
    };
    const inProcess = async () => {
      const wire = validate<Record<string, unknown>>(txnQuery.request, { merchantNo, requestId });
      stringifyJson({ ...wire, sign: await sign(wire, secretKey) });
      const envelope = parseJson(answer) as { data: unknown };
      validate(txnQuery.response, envelope.data);
    };

    const sample = await payout.transfers.retrieve({ requestId });
    console.log(
      `txn/query of payout ${sample.payoutId} (${answer.length} bytes answered), sandbox in a child process`,
    );
    const results = await compare({
      title: "payout txn/query: SDK call vs bare ky call of the same signed request (1 in flight)",
      unit: "req",
      // Twenty short rounds rather than five long ones (the same 25 s): on a shared 2-core
      // machine, load from other work comes in bursts of seconds, which short interleaved
      // rounds spread over every case instead of landing on one.
      roundMs: 250,
      rounds: 20,
      baseline: { name: "bare ky + JSON.parse", fn: bareKy },
      candidates: [
        { name: "payout.transfers.retrieve", fn: sdk },
        { name: "raw fetch + JSON.parse (reference)", fn: rawFetch },
        { name: "bare ky + Web Crypto sign per call (reference)", fn: bareKySigning },
        { name: "client work only (no HTTP)", fn: inProcess },
      ],
    });
    // CPU this process spends per call (user + system): the client's own cost, which machine
    // load does not inflate the way it inflates wall time.
    const cpuPerCall = async (fn: () => Promise<void>, calls = 500) => {
      const start = process.cpuUsage();
      for (let i = 0; i < calls; i++) await fn();
      const used = process.cpuUsage(start);
      return (used.user + used.system) / calls;
    };
    const kyCpu = await cpuPerCall(bareKy);
    const sdkCpu = await cpuPerCall(sdk);
    console.log(
      `client CPU per call: bare ky ${kyCpu.toFixed(0)} µs, SDK ${sdkCpu.toFixed(0)} µs (${(sdkCpu / kyCpu).toFixed(2)}×)`,
    );
    const ratio = results[1]?.ratio ?? Number.NaN;
    const overheadUs = ((results[1]?.nsPerOp ?? 0) - (results[0]?.nsPerOp ?? 0)) / 1000;
    const signing = results[3]?.nsPerOp ?? Number.NaN;
    console.log(
      `SDK / bare ky signing each call: ${((results[1]?.nsPerOp ?? Number.NaN) / signing).toFixed(3)}× (reference: the client's cost apart from signing)`,
    );
    console.log(
      `SDK / bare ky: ${ratio.toFixed(3)}× (+${overheadUs.toFixed(1)} µs per call; goal ≤ ${GOAL}×: ${ratio <= GOAL ? "met" : "NOT met"})`,
    );
  } finally {
    sandbox.process.kill();
  }
}
