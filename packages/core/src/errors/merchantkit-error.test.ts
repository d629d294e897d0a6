import { describe, expect, it } from "vitest";
import { ServerError } from "./api-error";
import {
  ConfigurationError,
  ConnectionError,
  RequestValidationError,
  WaitTimeoutError,
} from "./local-errors";

describe("JSON.stringify(error)", () => {
  it("writes name, message, code and the error's own fields (an Error alone writes {})", () => {
    const cause = Object.assign(new Error("connect ECONNREFUSED"), {
      request: { headers: { ApiKey: "sandbox-issuing-api-key" } },
    });
    const error = new ConnectionError("Connection to the service failed on /card/operate", {
      cause,
      code: "ECONNREFUSED",
      path: "/card/operate",
      idempotencyKey: "k-1",
    });
    const json = JSON.parse(JSON.stringify(error));
    expect(json).toEqual({
      name: "ConnectionError",
      message: "Connection to the service failed on /card/operate",
      code: "ECONNREFUSED",
      path: "/card/operate",
      idempotencyKey: "k-1",
    });
    // Neither the cause (it can hold a request whose headers carry the key) nor the stack.
    expect(JSON.stringify(error)).not.toContain("sandbox-issuing-api-key");
  });

  it("covers every kind: API errors with their redacted body, local errors with their issues", () => {
    const api = JSON.parse(
      JSON.stringify(
        new ServerError({
          message: "busy (respCode 50000, /txn/query)",
          respCode: "50000",
          respMsg: "busy",
          httpStatus: 200,
          path: "/txn/query",
          body: { respCode: "50000", sign: "[REDACTED]" },
        }),
      ),
    );
    expect(api).toMatchObject({
      name: "ServerError",
      message: "busy (respCode 50000, /txn/query)",
      kind: "server",
      respCode: "50000",
      httpStatus: 200,
      body: { respCode: "50000", sign: "[REDACTED]" },
    });
    const invalid = JSON.parse(
      JSON.stringify(new RequestValidationError([{ path: "cardId", message: "must be digits" }])),
    );
    expect(invalid).toMatchObject({
      name: "RequestValidationError",
      message: "Invalid request (nothing was sent): cardId: must be digits",
      field: "cardId",
      issues: [{ path: "cardId", message: "must be digits" }],
    });
    expect(JSON.parse(JSON.stringify(new ConfigurationError("apiKey is required")))).toEqual({
      name: "ConfigurationError",
      message: "apiKey is required",
    });
    expect(
      JSON.parse(
        JSON.stringify(
          new WaitTimeoutError("still P", { path: "/p", timeoutMs: 5, lastState: "P" }),
        ),
      ),
    ).toEqual({
      name: "WaitTimeoutError",
      message: "still P",
      path: "/p",
      timeoutMs: 5,
      lastState: "P",
    });
  });
});
