import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/local-errors";
import { createAreaTransport } from "./area-transport";
import { signAuth } from "./auth";
import { type ClientOptions, Transport, type TransportConfig } from "./transport";

interface Options extends ClientOptions {
  apiKey: string;
  merchantNo?: string | undefined;
}

const spec = {
  usage: "new ExampleClient({ environment, apiKey })",
  area: "payout" as const,
  userAgent: "merchantkit-example",
  apiKey: "the example key",
  merchantNo: true,
  own: ["apiKey"] as const,
  auth: ({ apiKey }: Options) => signAuth({ secretKey: apiKey }),
};

describe("createAreaTransport", () => {
  it("refuses bad options in one order, each with a ConfigurationError naming the option", () => {
    const environment = { origin: "http://127.0.0.1:1" };
    const refusals: [unknown, string][] = [
      [null, "new ExampleClient({ environment, apiKey }) needs its options"],
      [{ environment }, "apiKey is required: the example key (a non-empty string)"],
      [
        { environment: "staging", apiKey: "k", merchantNo: "" },
        "merchantNo, when given, must be a non-empty string",
      ],
      [{ environment: { account: "http://a.test" }, apiKey: "k" }, "environment.payout"],
      [{ environment, apiKey: " k" }, "secretKey begins or ends with whitespace"],
    ];
    for (const [options, message] of refusals) {
      expect(() => createAreaTransport(options as Options, spec)).toThrow(ConfigurationError);
      expect(() => createAreaTransport(options as Options, spec)).toThrow(message);
    }
  });

  it("gives the transport the rest of the options, merchantNo and the area's user-agent", () => {
    let seen: TransportConfig | undefined;
    const transport = createAreaTransport(
      { environment: "sandbox", apiKey: "k", merchantNo: "M1", maxRetries: 0 },
      {
        ...spec,
        transport: (config) => {
          seen = config;
          return new Transport(config);
        },
      },
    );
    expect(transport).toBeInstanceOf(Transport);
    expect(seen).toMatchObject({
      merchantNo: "M1",
      maxRetries: 0,
      userAgent: "merchantkit-example",
    });
    expect(seen).not.toHaveProperty("apiKey");
  });
});
