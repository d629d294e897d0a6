// Test support: generated sandbox data with every injectable break class injected twice, stored
// and matched as of AS_OF (the data the report's cross-checks run on).
import type { GroundTruth, RunningSandbox } from "@merchantkit/sandbox";
import type { Db } from "../db/database";
import { importLedger } from "../ledger/import-ledger";
import { runMatch } from "../match/run-match";
import { INJECTABLE_CLASSES, writeLedger } from ".";
import { storeGroundTruth } from "./ground-truth";

export const EVERY_CLASS_AS_OF = Date.parse("2026-06-01T00:00:00Z");

export async function matchEveryClass(db: Db, sandbox: RunningSandbox, seed = 5): Promise<void> {
  await sandbox.admin.reset();
  await sandbox.admin.freezeClock(EVERY_CLASS_AS_OF);
  const res = await fetch(`${sandbox.url}/__sandbox/issuing/generate`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ seed, cards: 40, cardTransactions: 500, days: 30 }),
  });
  if (res.status !== 200) throw new Error(`generate answered ${res.status}`);
  const truth = (await sandbox.admin.state()) as unknown as GroundTruth;
  const ledger = writeLedger(truth, {
    seed,
    asOf: EVERY_CLASS_AS_OF,
    discrepancies: Object.fromEntries(INJECTABLE_CLASSES.map((c) => [c, 2])),
  });
  await storeGroundTruth(db, truth, new Date(EVERY_CLASS_AS_OF));
  await importLedger(db, ledger.csv, { sourceFile: `seed-${seed}.csv` });
  await runMatch(db, { asOf: new Date(EVERY_CLASS_AS_OF) });
}
