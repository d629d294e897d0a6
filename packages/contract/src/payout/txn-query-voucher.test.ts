import { parseJson } from "@merchantkit/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { txnQueryVoucher } from "./txn-query-voucher";

describe("payout txn/queryVoucher", () => {
  it("names the payout by requestId or payoutId", () => {
    expect(v.safeParse(txnQueryVoucher.request, { merchantNo: "1" }).success).toBe(false);
    expect(v.safeParse(txnQueryVoucher.request, { merchantNo: "1", payoutId: "9" }).success).toBe(
      true,
    );
  });

  it("reads a receipt URL or inline Base64 content", () => {
    const url = v.parse(
      txnQueryVoucher.response,
      parseJson(
        '{"payoutId":1953712585351499776,"voucherUrl":"https://x/v.pdf","fileName":"v.pdf","fileType":"pdf"}',
      ),
    );
    expect(url.payoutId).toBe("1953712585351499776");
    expect(url.voucherUrl).toBe("https://x/v.pdf");
    const inline = v.parse(txnQueryVoucher.response, { payoutId: "1", content: "JVBERi0=" });
    expect(inline.content).toBe("JVBERi0=");
  });
});
