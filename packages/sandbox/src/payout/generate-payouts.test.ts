import { afterAll, describe, expect, it } from "vitest";
import { type RunningSandbox, startSandbox } from "../start-sandbox";

const NOW = Date.UTC(2027, 0, 31, 12);
const sandboxes: RunningSandbox[] = [];
afterAll(async () => Promise.all(sandboxes.map((s) => s.close())));

interface Dump {
  areas: {
    payout: {
      payouts: {
        payoutId: string;
        payoutStatus: string;
        requestId: string;
        sourceAmount: string;
      }[];
    };
  };
  ledger: { transactions: { serviceId: string; businessType: string; amount: string }[] };
}

async function generated(
  seed: number,
): Promise<{ dump: Dump; generated: { payouts: number; refused: number } }> {
  const sandbox = await startSandbox({ seed: 1 });
  sandboxes.push(sandbox);
  await sandbox.admin.freezeClock(NOW);
  const res = await fetch(`${sandbox.url}/__sandbox/payout/generate`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ seed, payouts: 60, days: 10 }),
  });
  expect(res.status).toBe(200);
  const { generated: summary } = (await res.json()) as {
    generated: { payouts: number; refused: number };
  };
  return { dump: (await sandbox.admin.state()) as unknown as Dump, generated: summary };
}

describe("generatePayouts", () => {
  it("creates settled payouts with their ledger postings, deterministically", async () => {
    const a = await generated(7);
    const b = await generated(7);
    expect(a.generated.payouts).toBe(60);
    expect(JSON.stringify(a.dump.areas.payout.payouts)).toBe(
      JSON.stringify(b.dump.areas.payout.payouts),
    );
    const payouts = a.dump.areas.payout.payouts;
    expect(payouts.every((p) => p.payoutStatus === "S" || p.payoutStatus === "F")).toBe(true);
    expect(payouts.some((p) => p.payoutStatus === "F")).toBe(true);
    for (const p of payouts) {
      const postings = a.dump.ledger.transactions
        .filter((t) => t.serviceId === p.payoutId)
        .map((t) => t.businessType);
      expect(postings).toContain("PAYOUT");
      if (p.payoutStatus === "F") expect(postings).toContain("PAYOUT_REFUND");
    }
  });

  it("differs for another seed", async () => {
    const a = await generated(8);
    const b = await generated(9);
    expect(JSON.stringify(a.dump.areas.payout.payouts.map((p) => p.sourceAmount))).not.toBe(
      JSON.stringify(b.dump.areas.payout.payouts.map((p) => p.sourceAmount)),
    );
  });

  it("runs after the card generator on one sandbox with the documented volumes, refusing none", async () => {
    const sandbox = await startSandbox({ seed: 1 });
    sandboxes.push(sandbox);
    await sandbox.admin.freezeClock(NOW);
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${sandbox.url}/__sandbox/${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { generated: Record<string, number> }).generated;
    };
    // The README's volumes: the card generator spends the opening balance on card funding.
    await post("issuing/generate", { seed: 7, cards: 1000, cardTransactions: 100_000, days: 30 });
    const payouts = await post("payout/generate", { seed: 7, payouts: 150, days: 30 });
    expect(payouts).toMatchObject({ payouts: 150, refused: 0 });
    const dump = (await sandbox.admin.state()) as unknown as Dump;
    const topUps = dump.ledger.transactions.filter((t) => t.businessType === "TOP_UP");
    expect(topUps.length).toBeGreaterThan(0);
  }, 60_000);
});
