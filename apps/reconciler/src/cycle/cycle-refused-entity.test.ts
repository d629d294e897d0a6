// A sub-merchant the merchant may no longer act for (the platform withdrew its grant): the
// account stream parks its serviceIds, and later syncs never ask for them again. Every cycle
// after that still names the sub-merchant and how many of its ids are parked, is not ok (exit 3,
// like `status`), and the break on its booked entry says the provider refused the read, not
// that it does not have the money; the incremental match says what a full one says.
import { PermissionError } from "@merchantkit/core";
import { describe, expect, it } from "vitest";
import { readStatus } from "../cli/commands/status";
import { loadConfig } from "../config/load-config";
import { queryText } from "../db/query-rows";
import { EXIT } from "../exit-codes";
import { importLedger } from "../ledger/import-ledger";
import { runMatch } from "../match/run-match";
import { syncAccountStream } from "../sync/account-stream";
import type { SyncContext } from "../sync/sync-types";
import { printedCycle } from "../testing/cycle";
import { type TestDatabase, testBackends } from "../testing/databases";
import { storedResults } from "../testing/stored-results";
import { useTestDatabase } from "../testing/use-database";

const PARENT = "M1000001";
const CHILD = "M1000002";
const SERVICE_ID = "7400000000000000001";

describe.each(testBackends())("a refused sub-merchant's parked serviceIds on %s", (kind) => {
  let database: TestDatabase;
  useTestDatabase(kind, (opened) => {
    database = opened;
  });

  it("are named by every cycle and by status, which exit 3, and its break says refused", async () => {
    const { db } = database;
    await queryText(
      db,
      `INSERT INTO sync_watermarks (stream, watermark)
       SELECT s, now() FROM unnest(ARRAY['card_transactions', 'operate_records', 'payouts']) s`,
    );
    await importLedger(
      db,
      `entry_id,kind,provider_ref,amount,currency,booked_at,entity\nC1,account,${SERVICE_ID},77.00,USD,2026-01-05T03:00:00Z,${CHILD}\n`,
      { sourceFile: "c.csv", entities: { merchantNo: PARENT, subMerchants: [CHILD] } },
    );
    const cycle = () =>
      printedCycle(
        database,
        { ledgerDir: undefined, ledgerQuery: undefined },
        { maxScopeShare: 1 },
      );
    const detail = async () => {
      const rows = await queryText<{ detail: string }>(
        db,
        "SELECT detail FROM breaks WHERE entry_id = 'C1' AND status <> 'resolved'",
      );
      return rows.map((r) => r.detail);
    };
    // The service answers at first (it has no posting under the id), then refuses every read on
    // the sub-merchant's behalf (40003).
    let grant = true;
    const ctx = {
      db,
      config: loadConfig({ MERCHANT_NO: PARENT, RECONCILER_ENTITIES: CHILD }),
      account: {
        transactions: {
          listByServiceIds: async () => {
            if (grant) return [];
            throw new PermissionError({
              message: "no authority over the sub-merchant",
              respCode: "40003",
              httpStatus: 403,
            });
          },
        },
      },
      log: () => {},
    } as unknown as SyncContext;
    expect((await syncAccountStream(ctx, {})).unread?.count).toBe(0);
    const answered = await cycle();
    expect(answered.summary).toMatchObject({ verdict: "breaks", entitiesRefused: [] });
    expect(await detail()).toEqual([expect.stringContaining("which the provider does not have")]);

    // The grant is withdrawn; the id comes up for its re-read.
    grant = false;
    await queryText(db, "UPDATE service_ids SET reread_at = now() - interval '1 minute'");
    const synced = await syncAccountStream(ctx, {});
    expect(synced.entitiesRefused).toEqual([CHILD]);
    expect(synced.unread?.count).toBe(1);

    const refused = [{ entity: CHILD, serviceIds: 1 }];
    // The tick after the refusal, and a later one whose sync would have been silent.
    const ticks = [await cycle(), await cycle()];
    for (const tick of ticks) {
      expect(tick.summary.entitiesRefused).toEqual(refused);
      expect(tick.summary.verdict).toBe("breaks");
      expect(tick.code).toBe(EXIT.unread);
    }
    const [text, ...more] = await detail();
    expect(more).toEqual([]);
    expect(text).toContain(`sub-merchant ${CHILD} refused`);
    expect(text).toContain("which the provider refused to let the merchant read");
    expect(text).not.toContain("does not have");
    // The park is in the change log (service_ids): a run building on the last one agrees with a
    // full one.
    await queryText(db, "UPDATE ledger_entries SET description = 'touched' WHERE entry_id = 'C1'");
    const built = await runMatch(db, { maxScopeShare: 1 });
    const fromChanges = await storedResults(db);
    await runMatch(db, { full: true });
    expect(await storedResults(db)).toEqual(fromChanges);
    expect(built.verdict).toBe("breaks");

    const account = (await readStatus(db)).find((s) => s.stream === "account_transactions");
    expect(account?.unread.count).toBe(1);
    expect(account?.entitiesRefused).toEqual(refused);
  });
});
