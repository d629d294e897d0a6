import { describe, expect, it } from "vitest";
import { isSuccess, readEnvelope } from "./envelope";

describe("readEnvelope", () => {
  it("reads respCode/respMsg and the code/message aliases", () => {
    expect(readEnvelope({ respCode: "20000", respMsg: null, data: { a: 1 } })).toMatchObject({
      respCode: "20000",
      data: { a: 1 },
    });
    expect(readEnvelope({ code: 40001, message: "invalid parameter" })).toMatchObject({
      respCode: "40001",
      respMsg: "invalid parameter",
    });
  });

  it("is not fooled by bodies that are not envelopes", () => {
    expect(readEnvelope([1])).toBeUndefined();
    expect(readEnvelope({ data: 1 })).toBeUndefined();
    expect(readEnvelope("20000")).toBeUndefined();
  });

  it("treats success:false as a failure even with respCode 20000", () => {
    const env = readEnvelope({
      respCode: "20000",
      success: false,
      data: { x: 1 },
      error: { code: "E1" },
    });
    expect(env && isSuccess(env)).toBe(false);
    expect(env?.error).toEqual({ code: "E1" });
  });
});
