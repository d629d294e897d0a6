// Issue 14 §6: the root export lists what merchants and area package authors use; core's own
// machinery stays out of it (the internal subpath holds what sibling packages share).
import { describe, expect, it } from "vitest";
import * as client from "./client-surface";
import * as root from "./index";
import * as internal from "./internal";

describe("core's public surface", () => {
  it("keeps retry predicates, envelope reading, event plumbing and error construction out of the root", () => {
    const rootNames = Object.keys(root);
    for (const name of [
      "isRetryable",
      "kyRetryOptions",
      "parseRetryAfter",
      "DEFAULT_RETRY",
      "readEnvelope",
      "isSuccess",
      "kindForHttpStatus",
      "emit",
      "log",
      "createApiError",
      "markErrorClass",
      "hasErrorMarker",
      "constantTimeEqual",
      "looksLikeCardNumber",
      "replaceCardLikeRuns",
    ]) {
      expect(rootNames).not.toContain(name);
    }
  });

  it("still offers what merchants and area packages build with", () => {
    for (const name of [
      "Transport",
      "defineEndpoint",
      "signAuth",
      "sign",
      "verifySign",
      "parseJson",
      "stringifyJson",
      "ApiError",
      "ConnectionError",
      "TimeoutError",
      "paginate",
      "redact",
    ]) {
      expect(Object.keys(root)).toContain(name);
    }
  });

  it("gives sibling packages the Web Crypto helpers and the card-number rule on the internal subpath", () => {
    expect(Object.keys(internal).sort()).toEqual([
      "constantTimeEqual",
      "looksLikeCardNumber",
      "replaceCardLikeRuns",
      "toHex",
    ]);
  });

  it("has every client-surface name in the root too", () => {
    for (const name of Object.keys(client)) expect(Object.keys(root)).toContain(name);
  });
});
