// Upserts of card transactions, operate records and account transactions, on PGlite and (with
// DATABASE_URL) a Postgres server: exact round trips, versions, unchanged rows, downgrades.
import { isJsonNumber, type JsonNumber, parseJson } from "@merchantkit/core";
import { asc, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import {
  accountTransactions,
  accountTransactionVersions,
  cardTransactions,
  cardTransactionVersions,
  operateRecordFees,
  operateRecords,
  operateRecordVersions,
  serviceIds,
} from "../db/schema";
import { type TestDatabase, testBackends } from "../testing/databases";
import { accountTxn, BIG_ID, cardTxn, operateRecord } from "../testing/records";
import { useTestDatabase } from "../testing/use-database";
import { upsertAccountTransactions } from "./account-transactions";
import { canonicalWireText, wireHash } from "./canonical-wire";
import { upsertCardTransactions } from "./card-transactions";
import { upsertOperateRecords } from "./operate-records";

const sync = { source: "sync" } as const;
const webhook = { source: "webhook" } as const;

function numberText(value: unknown): string {
  if (!isJsonNumber(value)) throw new Error(`expected a JsonNumber, got ${String(value)}`);
  return (value as JsonNumber).text;
}

/** raw parsed losslessly, and its hash recomputed from it: the stored pair is consistent. */
function readRaw(raw: string, rawHash: string): Record<string, unknown> {
  const parsed = parseJson(raw) as Record<string, unknown>;
  expect(wireHash(canonicalWireText(parsed))).toBe(rawHash);
  return parsed;
}

describe.each(testBackends())("store records on %s", (kind) => {
  let database: TestDatabase;
  let db: Db;
  useTestDatabase(kind, (opened) => {
    database = opened;
    db = opened.db;
  });

  const cardRow = async (key: string) =>
    (await db.select().from(cardTransactions).where(eq(cardTransactions.txnOrderNo, key)))[0];
  const cardVersions = (key: string) =>
    db
      .select()
      .from(cardTransactionVersions)
      .where(eq(cardTransactionVersions.txnOrderNo, key))
      .orderBy(asc(cardTransactionVersions.version));

  it("round-trips a card transaction's 64-bit ids, amounts and times exactly", async () => {
    const txn = cardTxn({
      settleAmount: "0.10",
      exchangeFee: "0.01",
      settleTime: 1_780_000_999_999,
    });
    expect(await upsertCardTransactions(db, [txn], sync)).toEqual({
      inserted: 1,
      updated: 0,
      unchanged: 0,
      skippedDowngrades: 0,
    });
    const row = await cardRow(txn.txnOrderNo);
    expect(row).toMatchObject({
      cardId: BIG_ID,
      transactionAmount: "0.10",
      cardAmount: "12345678901234567.89",
      settleAmount: "0.10",
      exchangeFee: "0.01",
      merchantName: 'CAFE "LE PETIT"\tParis',
      txnStatus: "P",
      version: 1,
      source: "sync",
    });
    expect(row?.authTime?.getTime()).toBe(txn.authTime);
    expect(row?.settleTime?.getTime()).toBe(1_780_000_999_999);
    const raw = readRaw(row?.raw ?? "", row?.rawHash ?? "");
    expect(numberText(raw.cardId)).toBe(BIG_ID);
    expect(numberText(raw.transactionAmount)).toBe("0.10");
    expect(numberText(raw.cardAmount)).toBe("12345678901234567.89");
    const versions = await cardVersions(txn.txnOrderNo);
    expect(versions.map((v) => [v.version, v.txnStatus, v.rawHash])).toEqual([
      [1, "P", row?.rawHash],
    ]);
    expect(numberText(readRaw(versions[0]?.raw ?? "", versions[0]?.rawHash ?? "").cardId)).toBe(
      BIG_ID,
    );
  });

  it("writes nothing for an unchanged record: no update, no version", async () => {
    const txn = cardTxn();
    await upsertCardTransactions(db, [txn], sync);
    const before = await cardRow(txn.txnOrderNo);
    const again = await upsertCardTransactions(db, [{ ...txn }, cardTxn()], webhook);
    expect(again).toEqual({ inserted: 1, updated: 0, unchanged: 1, skippedDowngrades: 0 });
    const after = await cardRow(txn.txnOrderNo);
    expect(after?.updatedAt.getTime()).toBe(before?.updatedAt.getTime());
    expect(after?.source).toBe("sync");
    expect(await cardVersions(txn.txnOrderNo)).toHaveLength(1);
  });

  it("records P → S as an update with a new version", async () => {
    const txn = cardTxn();
    await upsertCardTransactions(db, [txn], sync);
    const settled = {
      ...txn,
      txnStatus: "S" as const,
      settleAmount: "0.10",
      settleCurrency: "USD",
    };
    expect(await upsertCardTransactions(db, [settled], webhook)).toMatchObject({ updated: 1 });
    expect(await cardRow(txn.txnOrderNo)).toMatchObject({
      txnStatus: "S",
      settleAmount: "0.10",
      version: 2,
      source: "webhook",
    });
    expect(
      (await cardVersions(txn.txnOrderNo)).map((v) => [v.version, v.txnStatus, v.source]),
    ).toEqual([
      [1, "P", "sync"],
      [2, "S", "webhook"],
    ]);
  });

  it("never downgrades S to P: a late P snapshot changes nothing", async () => {
    const txn = cardTxn();
    await upsertCardTransactions(db, [{ ...txn, txnStatus: "S" }], webhook);
    const late = await upsertCardTransactions(db, [{ ...txn, merchantCity: "Lyon" }], sync);
    expect(late).toEqual({ inserted: 0, updated: 0, unchanged: 0, skippedDowngrades: 1 });
    expect(await cardRow(txn.txnOrderNo)).toMatchObject({ txnStatus: "S", version: 1 });
    expect(await cardVersions(txn.txnOrderNo)).toHaveLength(1);
  });

  it("records S → F and F → S as changes", async () => {
    const txn = cardTxn({ txnStatus: "S" });
    await upsertCardTransactions(db, [txn], sync);
    expect(await upsertCardTransactions(db, [{ ...txn, txnStatus: "F" }], sync)).toMatchObject({
      updated: 1,
    });
    expect(await cardRow(txn.txnOrderNo)).toMatchObject({ txnStatus: "F", version: 2 });
  });

  it("applies repeats of a key within one call in order", async () => {
    const a = cardTxn();
    const b = cardTxn();
    const counts = await upsertCardTransactions(
      db,
      [a, { ...a, txnStatus: "S" }, { ...b, txnStatus: "F" }, b, { ...a, txnStatus: "S" }],
      { source: "sync", batchSize: 2 },
    );
    expect(counts).toEqual({ inserted: 2, updated: 1, unchanged: 1, skippedDowngrades: 1 });
    expect((await cardVersions(a.txnOrderNo)).map((v) => v.txnStatus)).toEqual(["P", "S"]);
    expect((await cardVersions(b.txnOrderNo)).map((v) => v.txnStatus)).toEqual(["F"]);
  });

  it("keeps a stored card id when a webhook carries a masked card number", async () => {
    const txn = cardTxn();
    await upsertCardTransactions(db, [txn], sync);
    await upsertCardTransactions(
      db,
      [{ ...txn, txnStatus: "S", cardId: "411111******1111" }],
      webhook,
    );
    const row = await cardRow(txn.txnOrderNo);
    expect(row).toMatchObject({ cardId: BIG_ID, txnStatus: "S" });
    expect(readRaw(row?.raw ?? "", row?.rawHash ?? "").cardId).toBe("411111******1111");
  });

  it("refuses a record without its key and writes nothing of the call", async () => {
    const good = cardTxn();
    const bad = { ...cardTxn(), txnOrderNo: "" };
    await expect(upsertCardTransactions(db, [good, bad], sync)).rejects.toThrow(/txnOrderNo/);
    expect(await cardRow(good.txnOrderNo)).toBeUndefined();
  });

  it("round-trips an operate record with its fees, and replaces the fees on change", async () => {
    const op = operateRecord();
    expect(await upsertOperateRecords(db, [op], sync)).toMatchObject({ inserted: 1 });
    const fees = () =>
      db
        .select()
        .from(operateRecordFees)
        .where(eq(operateRecordFees.operateRecordId, op.operateRecordId))
        .orderBy(asc(operateRecordFees.feeIndex));
    expect((await fees()).map((f) => [f.feeIndex, f.feeType, f.feeAmount, f.feeCurrency])).toEqual([
      [0, "DEPOSIT", "0.10", "USD"],
      [1, "CREATE", "1.00", "USD"],
    ]);
    const [row] = await db
      .select()
      .from(operateRecords)
      .where(eq(operateRecords.operateRecordId, op.operateRecordId));
    expect(row).toMatchObject({ cardId: BIG_ID, amount: "12345678901234567.89", status: "P" });
    expect(numberText(readRaw(row?.raw ?? "", row?.rawHash ?? "").operateRecordId)).toBe(
      op.operateRecordId,
    );

    // The event of the settlement: no operateTime, one fee left.
    const { operateTime, ...event } = op;
    const settled = {
      ...event,
      status: "S" as const,
      feeList: [{ feeType: "DEPOSIT", feeAmount: "0.20", feeCurrency: "USD" }],
    };
    expect(await upsertOperateRecords(db, [settled], webhook)).toMatchObject({ updated: 1 });
    const [after] = await db
      .select()
      .from(operateRecords)
      .where(eq(operateRecords.operateRecordId, op.operateRecordId));
    expect(after).toMatchObject({ status: "S", version: 2 });
    expect(after?.operateTime?.getTime()).toBe(operateTime);
    expect((await fees()).map((f) => [f.feeIndex, f.feeAmount])).toEqual([[0, "0.20"]]);
    const versions = await db
      .select()
      .from(operateRecordVersions)
      .where(eq(operateRecordVersions.operateRecordId, op.operateRecordId));
    expect(versions.map((v) => v.status).sort()).toEqual(["P", "S"]);
    const [due] = await db
      .select()
      .from(serviceIds)
      .where(eq(serviceIds.serviceId, op.operateRecordId));
    expect(due).toMatchObject({ source: "operate_record", fetchedAt: null });
  });

  // Two connections race: PGlite serves one connection, so this runs on the server only.
  if (kind === "postgres")
    it("leaves the latest state's fees when another writer added fees meanwhile", async () => {
      const base = operateRecord({ status: "S", feeList: [] });
      await upsertOperateRecords(db, [base], sync);
      const fee = (feeType: string, feeAmount: string) => ({
        feeType,
        feeAmount,
        feeCurrency: "USD",
      });
      const twoFees = { ...base, feeList: [fee("DEPOSIT", "0.10"), fee("CREATE", "1.00")] };
      const oneFee = { ...base, feeList: [fee("DEPOSIT", "0.20")] };
      let release = () => {};
      const holding = new Promise<void>((resolve) => {
        release = resolve;
      });
      const other = await database.openAnother();
      try {
        let wrote = () => {};
        const written = new Promise<void>((resolve) => {
          wrote = resolve;
        });
        // A webhook writes two fees and keeps its transaction open.
        const first = db.transaction(async (tx) => {
          await upsertOperateRecords(tx, [twoFees], webhook);
          wrote();
          await holding;
        });
        await written;
        // The sync, on its own connection, waits for the webhook's row lock with a snapshot
        // taken before the two fee rows were committed.
        const second = upsertOperateRecords(other.db, [oneFee], sync);
        await vi.waitFor(
          async () => {
            const [waiting] = await queryText<{ n: string }>(
              db,
              "SELECT count(*)::text AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
            );
            expect(waiting?.n).toBe("1");
          },
          { timeout: 10_000, interval: 20 },
        );
        release();
        await first;
        expect(await second).toMatchObject({ updated: 1 });
      } finally {
        release();
        await other.close();
      }
      const fees = await db
        .select()
        .from(operateRecordFees)
        .where(eq(operateRecordFees.operateRecordId, base.operateRecordId));
      expect(fees.map((f) => [f.feeIndex, f.feeType, f.feeAmount])).toEqual([
        [0, "DEPOSIT", "0.20"],
      ]);
    });

  it("round-trips an account transaction and versions its changes", async () => {
    const txn = accountTxn();
    expect(await upsertAccountTransactions(db, [txn], sync)).toMatchObject({ inserted: 1 });
    expect(await upsertAccountTransactions(db, [txn], sync)).toMatchObject({ unchanged: 1 });
    const changed = { ...txn, remark: "corrected", balanceUpdDate: "2026-05-28 10:00" };
    expect(await upsertAccountTransactions(db, [changed], sync)).toMatchObject({ updated: 1 });
    const [row] = await db
      .select()
      .from(accountTransactions)
      .where(eq(accountTransactions.acntTxnId, txn.acntTxnId));
    expect(row).toMatchObject({
      serviceId: BIG_ID,
      amount: "-12345678901234567.89",
      remark: "corrected",
      version: 2,
    });
    expect(row?.balanceUpdDate?.toISOString()).toBe("2026-05-28T10:00:00.000Z");
    const raw = readRaw(row?.raw ?? "", row?.rawHash ?? "");
    expect(numberText(raw.serviceId)).toBe(BIG_ID);
    expect(raw.amount).toBe("-12345678901234567.89"); // the account wire carries a string
    const versions = await db
      .select()
      .from(accountTransactionVersions)
      .where(eq(accountTransactionVersions.acntTxnId, txn.acntTxnId));
    expect(versions).toHaveLength(2);
  });

  it("stores an unreadable balance time as null instead of failing the batch", async () => {
    const odd = accountTxn({ balanceUpdDate: "2026-02-30T10:00:00Z" });
    await upsertAccountTransactions(db, [odd, accountTxn()], sync);
    const [row] = await db
      .select()
      .from(accountTransactions)
      .where(eq(accountTransactions.acntTxnId, odd.acntTxnId));
    expect(row?.balanceUpdDate).toBeNull();
    expect(readRaw(row?.raw ?? "", row?.rawHash ?? "").balanceUpdDate).toBe("2026-02-30T10:00:00Z");
  });
});
