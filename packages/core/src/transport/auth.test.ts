import { describe, expect, it } from "vitest";
import { isConfigurationError } from "../errors/local-errors";
import { accountApiKeyAuth, issuingApiKeyAuth, signAuth } from "./auth";

/** The ConfigurationError `build` throws; fails the test when it throws nothing or anything else. */
function configurationError(build: () => unknown): Error {
  let thrown: unknown;
  try {
    build();
  } catch (error) {
    thrown = error;
  }
  expect(isConfigurationError(thrown)).toBe(true);
  return thrown as Error;
}

const KEY = "sandbox-issuing-api-key";

describe("credentials are checked when the strategy is built", () => {
  it.each([
    ["a line break inside", `${KEY}\nX`, "control character"],
    ["a NUL", `${KEY}\u0000`, "control character"],
    ["a tab", `${KEY}\tX`, "control character"],
    ["a character beyond Latin-1", `${KEY}\u2713`, "HTTP header cannot carry"],
    ["only whitespace", "  ", "blank"],
    ["a trailing line break", `${KEY}\n`, "whitespace"],
    ["a leading space", ` ${KEY}`, "whitespace"],
  ])(
    "refuses a header key with %s, naming the option and the rule, never the value",
    (_, key, rule) => {
      for (const build of [
        () => issuingApiKeyAuth({ apiKey: key }),
        () => accountApiKeyAuth({ apiKey: key }),
      ]) {
        const error = configurationError(build);
        expect(error.message).toMatch(/^apiKey /);
        expect(error.message).toContain(rule);
        expect(error.message).not.toContain(KEY);
        expect(String(error.stack)).not.toContain(KEY);
      }
    },
  );

  it("refuses a blank or control-character secretKey; a non-Latin-1 one signs (it is never a header)", () => {
    for (const [secretKey, rule] of [
      ["  ", "blank"],
      ["\t\n", "blank"],
      ["s3cret\r\nX", "control character"],
      ["s3cret ", "whitespace"],
    ] as const) {
      const error = configurationError(() => signAuth({ secretKey }));
      expect(error.message).toMatch(/^secretKey /);
      expect(error.message).toContain(rule);
      expect(error.message).not.toContain("s3cret");
    }
    expect(signAuth({ secretKey: "clé-secrète-✓" }).kind).toBe("sign");
  });

  it("keeps accepting ordinary keys", () => {
    expect(issuingApiKeyAuth({ apiKey: KEY }).kind).toBe("issuingApiKey");
    expect(accountApiKeyAuth({ apiKey: "k-é 1" }).kind).toBe("accountApiKey");
    expect(signAuth({ secretKey: "k" }).kind).toBe("sign");
  });
});
