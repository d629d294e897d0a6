import { parseJson, toValidationIssues } from "@merchantkit/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { queryTxnList } from "../issuing/query-txn-list";
import { beneficiaryEdit } from "../payout/beneficiary-edit";
import { isId64, REQUEST_TEXT_MAX_LENGTH } from "./request-limits";

const ID_RULE = "must be a 64-bit id: digits without leading zeros, at most 9223372036854775807";
const issues = (result: { issues?: readonly v.BaseIssue<unknown>[] }) =>
  toValidationIssues(result.issues ?? []);

describe("isId64", () => {
  it("takes canonical digits up to 2^63 - 1 and nothing else", () => {
    for (const id of [
      "0",
      "1",
      "1953712585351499776",
      "9223372036854775807",
      "999999999999999999",
    ]) {
      expect(isId64(id), id).toBe(true);
    }
    for (const id of [
      "",
      "01",
      "-1",
      "1.0",
      "1e3",
      " 1",
      "9223372036854775808",
      "18446744073709551616",
      "99999999999999999999",
    ]) {
      expect(isId64(id), id).toBe(false);
    }
  });
});

describe("request limits", () => {
  const page = { startTime: 0, endTime: 60, pageNum: 1, pageSize: 10 };

  it("hold the client's requests and what the sandbox reads alike", () => {
    const sent = v.safeParse(queryTxnList.request, { ...page, cardId: "18446744073709551616" });
    expect(issues(sent)).toEqual([{ path: "cardId", message: ID_RULE }]);
    const read = v.safeParse(
      queryTxnList.requestCodec.decode,
      parseJson(
        '{"startTime":0,"endTime":60,"pageNum":1,"pageSize":10,"cardId":18446744073709551616}',
      ),
    );
    expect(issues(read)).toEqual([{ path: "cardId", message: ID_RULE }]);
    // The fast path refuses exactly as the schema does.
    expect(queryTxnList.parseRequest({ ...page, cardId: "18446744073709551616" }).success).toBe(
      false,
    );
    expect(queryTxnList.parseRequest({ ...page, cardId: "9223372036854775807" }).success).toBe(
      true,
    );
  });

  it("give a string without a documented limit the stated one, inside JSON-encoded fields too", () => {
    const long = "x".repeat(REQUEST_TEXT_MAX_LENGTH + 1);
    expect(issues(v.safeParse(queryTxnList.request, { ...page, txnType: long }))).toEqual([
      { path: "txnType", message: `must be at most ${REQUEST_TEXT_MAX_LENGTH} characters` },
    ]);
    const edit = {
      merchantNo: "800209",
      beneficiaryId: "1953712585351499776",
      merchantRefId: "ref",
      bankCountry: "US",
      payoutCurrency: "USD",
      entityType: "1",
      paymentMethod: "LOCAL",
      receiverInfo: { firstName: "A", lastName: long },
      address: {},
      accountInfomation: {},
    };
    expect(issues(v.safeParse(beneficiaryEdit.request, edit))).toEqual([
      {
        path: "receiverInfo.lastName",
        message: `must be at most ${REQUEST_TEXT_MAX_LENGTH} characters`,
      },
    ]);
    const fine = {
      ...edit,
      receiverInfo: { firstName: "A", lastName: "x".repeat(REQUEST_TEXT_MAX_LENGTH) },
    };
    expect(v.safeParse(beneficiaryEdit.request, fine).success).toBe(true);
  });
});
