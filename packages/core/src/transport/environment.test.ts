import { describe, expect, it } from "vitest";
import { isConfigurationError } from "../errors/local-errors";
import { resolveBaseUrl } from "./environment";

describe("resolveBaseUrl", () => {
  it("knows the provider's documented hosts", () => {
    expect(resolveBaseUrl("sandbox", "payout")).toBe("https://sandbox-api.onerway.com/payout");
    expect(resolveBaseUrl("production", "issuing")).toBe(
      "https://issuer.onerway.com/api/v1/merchant",
    );
    expect(resolveBaseUrl("sandbox", "profitShare")).toBe("https://sandbox-acq.onerway.com");
  });

  it("puts every area under its prefix on one origin", () => {
    const env = { origin: "http://127.0.0.1:4010/" };
    expect(resolveBaseUrl(env, "payout")).toBe("http://127.0.0.1:4010/payout");
    expect(resolveBaseUrl(env, "account")).toBe("http://127.0.0.1:4010/account-server");
    expect(resolveBaseUrl(env, "issuing")).toBe("http://127.0.0.1:4010/api/v1/merchant");
    expect(resolveBaseUrl(env, "profitShare")).toBe("http://127.0.0.1:4010");
  });

  it("takes explicit base URLs and says which one is missing", () => {
    expect(resolveBaseUrl({ payout: "https://proxy.example/payout/" }, "payout")).toBe(
      "https://proxy.example/payout",
    );
    expect(() => resolveBaseUrl({ payout: "https://x" }, "issuing")).toThrow(
      /environment\.issuing/,
    );
    expect(() => resolveBaseUrl({ issuing: "ftp://x" }, "issuing")).toThrow(/http\(s\) URL/);
    try {
      resolveBaseUrl({ issuing: "not a url" }, "issuing");
      expect.unreachable();
    } catch (e) {
      expect(isConfigurationError(e)).toBe(true);
    }
  });
});
