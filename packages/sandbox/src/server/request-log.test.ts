// The request log is a bounded ring that redacts when read.
import { REDACTED } from "@merchantkit/core";
import { describe, expect, it } from "vitest";
import { RequestLog } from "./request-log";

const entry = (n: number, bodyText = `{"n":${n}}`) => ({
  method: "POST",
  path: n % 2 === 0 ? "/even" : "/odd",
  endpoint: undefined,
  headers: { apikey: "secret-key", "content-type": "application/json" },
  bodyText,
  httpStatus: 200,
  respCode: "20000",
  at: n,
});

describe("RequestLog", () => {
  it("keeps only the last `capacity` entries, oldest first", () => {
    const log = new RequestLog(3);
    for (let n = 1; n <= 5; n++) log.add(entry(n));
    expect(log.list().map((e) => e.at)).toEqual([3, 4, 5]);
    expect(log.list({ path: "/odd" }).map((e) => e.at)).toEqual([3, 5]);
    expect(log.size).toBe(3);
  });

  it("redacts headers, JSON bodies (also inside JSON-encoded strings) and card-like digits in text", () => {
    const log = new RequestLog();
    log.add(
      entry(1, '{"sign":"abc","accountInfomation":"{\\"cardNumber\\":\\"4111111111111111\\"}"}'),
    );
    log.add(entry(2, "card=4111111111111111&x=1"));
    const [json, text] = log.list();
    expect(json?.headers.apikey).toBe(REDACTED);
    expect(json?.headers["content-type"]).toBe("application/json");
    expect(json?.body).toEqual({
      sign: REDACTED,
      accountInfomation: `{"cardNumber":"${REDACTED}"}`,
    });
    expect(text?.body).toBe("card=****************&x=1");
  });
});
