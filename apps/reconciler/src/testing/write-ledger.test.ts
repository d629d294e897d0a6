// The ledger generator: deterministic per seed, readable by the import, every class injected
// once on its own card, and the ground truth's stale authorizations listed.
import { type GroundTruth, type RunningSandbox, startSandbox } from "@merchantkit/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEDGER_COLUMNS } from "../ledger/ledger-row";
import { parseLedger } from "../ledger/parse-ledger";
import { INJECTABLE_CLASSES, writeLedger } from "./write-ledger";

const AS_OF = Date.parse("2026-06-01T00:00:00Z");

describe("writeLedger", () => {
  let sandbox: RunningSandbox;
  let truth: GroundTruth;
  beforeAll(async () => {
    sandbox = await startSandbox();
    await sandbox.admin.freezeClock(AS_OF);
    await fetch(`${sandbox.url}/__sandbox/issuing/generate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ seed: 5, cards: 40, cardTransactions: 500, days: 30 }),
    });
    truth = (await sandbox.admin.state()) as unknown as GroundTruth;
  });
  afterAll(() => sandbox?.close());

  it("writes the same file for the same seed, and another for another seed", () => {
    const a = writeLedger(truth, { seed: 1 });
    expect(writeLedger(truth, { seed: 1 }).csv).toBe(a.csv);
    expect(writeLedger(truth, { seed: 2 }).csv).not.toBe(a.csv);
  });

  it("writes a file the import accepts, with each requested class injected once", () => {
    const ledger = writeLedger(truth, { seed: 1 });
    const parsed = parseLedger(ledger.csv);
    expect(parsed.errors).toEqual([]);
    expect(parsed.entries.length).toBe(ledger.entries.length);
    const injected = ledger.injected.filter((d) => d.origin === "injected");
    expect(injected.map((d) => d.class).sort()).toEqual([...INJECTABLE_CLASSES].sort());
    for (const d of injected) expect(d.entryId ?? d.providerRef).toBeTruthy();
    const ids = new Set(ledger.entries.map((e) => e.entryId));
    for (const d of injected) if (d.entryId) expect(ids.has(d.entryId)).toBe(true);
    // Money stays decimal text.
    for (const e of ledger.entries) expect(e.amount).toMatch(/^-?\d+(\.\d+)?$/);
  });

  it("injects only what is asked, and lists stale authorizations from the ground truth", () => {
    const ledger = writeLedger(truth, { seed: 3, discrepancies: { amount_mismatch: 2 } });
    const injected = ledger.injected.filter((d) => d.origin === "injected");
    expect(injected.map((d) => d.class)).toEqual(["amount_mismatch", "amount_mismatch"]);
    for (const d of ledger.injected.filter((x) => x.origin === "ground_truth"))
      expect(d.class).toBe("stale_authorization");
  });

  it("says so when the data has nothing left to inject into", () => {
    expect(() =>
      writeLedger(truth, { seed: 1, discrepancies: { missing_in_ledger: 10_000 } }),
    ).toThrow(/no record left to inject missing_in_ledger/);
  });

  it("writes the header the reconciler reads, in its order (entity only with sub-merchant entries)", () => {
    const [header] = writeLedger(truth, { seed: 1 }).csv.split("\n");
    expect(header).toBe(LEDGER_COLUMNS.filter((c) => c !== "entity").join(","));
  });
});
