// A card operation booked with its fees and matched, whose serviceId then carries an extra
// posting (a -2.00 ADJUSTMENT): the cash_leg_mismatch is money the merchant account moved, so
// the bridge's provider total is what the account moved and the break's effect is in the
// break effects, the queue's totals and the report's per-class figures, tying to the cent.
// PGlite and (with DATABASE_URL) a Postgres server.
import { describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { importLedger } from "../ledger/import-ledger";
import { runMatch } from "../match/run-match";
import { testBackends } from "../testing/databases";
import { storeGroundTruth } from "../testing/ground-truth";
import { LEDGER_HEADER } from "../testing/ledger-files";
import { accountTxn, operateRecord } from "../testing/records";
import { useTestDatabase } from "../testing/use-database";
import { queueTotals } from "../workflow/queue-totals";
import { loadReport } from "./report-data";

const AS_OF = Date.parse("2026-06-10T00:00:00Z");
const OPERATED = Date.parse("2026-06-01T10:00:00Z");
const CARD = "1953712585351400011";

describe.each(testBackends())("a cash leg posted late on %s", (kind) => {
  let db: Db;
  useTestDatabase(kind, (opened) => {
    db = opened.db;
  });

  it("reaches the bridge, the break effects, the queue totals and the report", async () => {
    const op = operateRecord({
      cardId: CARD,
      clientRequestId: "cash-card-1",
      type: "CREATE",
      status: "S",
      amount: "80.00",
      currency: "USD",
      operateTime: OPERATED,
      feeList: [
        { feeType: "CREATE", feeAmount: "2.00", feeCurrency: "USD" },
        { feeType: "DEPOSIT", feeAmount: "0.20", feeCurrency: "USD" },
      ],
    });
    const posting = (amount: string, businessType: string, day: string) =>
      accountTxn({
        serviceId: op.operateRecordId,
        amount,
        businessType,
        balanceUpdDate: `${day}T10:00:00.000Z`,
        externalOrderId: op.clientRequestId,
      });
    await storeGroundTruth(
      db,
      {
        areas: { issuing: { operateRecords: [op] } },
        ledger: {
          transactions: [
            posting("-80.00", "CARD_CREATE", "2026-06-01"),
            posting("-2.00", "FEE", "2026-06-01"),
            posting("-0.20", "FEE", "2026-06-01"),
            // The provider's late adjustment under the operation's serviceId.
            posting("-2.00", "ADJUSTMENT", "2026-06-05"),
          ],
        },
      } as Parameters<typeof storeGroundTruth>[1],
      new Date(AS_OF),
    );
    await importLedger(
      db,
      [
        LEDGER_HEADER,
        `K1,card_operation,cash-card-1,-80.00,USD,2026-06-01,,${CARD},`,
        `K2,fee,cash-card-1,-2.00,USD,2026-06-01,CREATE,${CARD},`,
        `K3,fee,cash-card-1,-0.20,USD,2026-06-01,DEPOSIT,${CARD},`,
      ].join("\n"),
    );
    await runMatch(db, { asOf: new Date(AS_OF) });

    expect(
      await queryText(
        db,
        `SELECT class, status, amount::text, currency FROM breaks WHERE status <> 'resolved'`,
      ),
    ).toEqual([{ class: "cash_leg_mismatch", status: "open", amount: "2.00", currency: "USD" }]);
    expect(
      await queryText(db, `SELECT class, currency, effect::text FROM finance_break_effects`),
    ).toEqual([{ class: "cash_leg_mismatch", currency: "USD", effect: "-2.00" }]);

    // The account moved -84.20; the ledger booked -82.20; the -2.00 is the open break.
    expect(
      await queryText(
        db,
        `SELECT currency, provider_total::text, ledger_total::text, difference::text, timing::text,
           open_breaks::text, pending::text, unexplained::text, by_class::text
         FROM finance_currency_bridge`,
      ),
    ).toEqual([
      {
        currency: "USD",
        provider_total: "-84.20",
        ledger_total: "-82.20",
        difference: "-2.00",
        timing: "0.00",
        open_breaks: "-2.00",
        pending: "0",
        unexplained: "0",
        by_class: '{"cash_leg_mismatch": -2.00}',
      },
    ]);
    // On the day the adjustment was posted.
    expect(
      await queryText(
        db,
        `SELECT day::text, difference::text, explained_by_breaks::text FROM finance_daily_statement
         WHERE difference <> 0`,
      ),
    ).toEqual([{ day: "2026-06-05", difference: "-2.00", explained_by_breaks: "-2.00" }]);

    expect(await queueTotals(db, {})).toEqual([
      { currency: "USD", count: 1, atStake: "2.00", effect: "-2.00" },
    ]);
    const report = await loadReport(db, {});
    expect(report.byClass).toEqual([
      { class: "cash_leg_mismatch", currency: "USD", count: 1, amount: "-2.00" },
    ]);
  });
});
