#!/usr/bin/env node
/**
 * `merchantkit-sandbox`: starts a sandbox from the shell and prints its origin and the test
 * credentials to configure a client with (they are the sandbox's own, not secrets). Stops on
 * SIGINT/SIGTERM.
 *
 *   merchantkit-sandbox --port 4010 --host 127.0.0.1 --seed 1 [--merchant-no M1] [--webhook-url URL]
 */
import { parseArgs } from "node:util";
import { startSandbox } from "./start-sandbox";

const USAGE =
  "usage: merchantkit-sandbox [--port 4010] [--host 127.0.0.1] [--seed 1] [--merchant-no NO] " +
  "[--webhook-url URL] [--retry-interval-ms MS]";

function whole(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) {
    console.error(`--${name} must be a whole number, got ${JSON.stringify(text)}\n${USAGE}`);
    process.exit(2);
  }
  return n;
}

async function main(): Promise<void> {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      options: {
        port: { type: "string" },
        host: { type: "string" },
        seed: { type: "string" },
        "merchant-no": { type: "string" },
        "webhook-url": { type: "string" },
        "retry-interval-ms": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }).values;
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const webhookUrl = values["webhook-url"] as string | undefined;
  const sandbox = await startSandbox({
    port: whole("port", values.port as string | undefined, 4010),
    host: (values.host as string | undefined) ?? "127.0.0.1",
    seed: whole("seed", values.seed as string | undefined, 1),
    ...(values["merchant-no"] ? { merchantNo: values["merchant-no"] as string } : {}),
    ...(webhookUrl
      ? { webhookUrls: { issuing: webhookUrl, payout: webhookUrl, profitShare: webhookUrl } }
      : {}),
    ...(values["retry-interval-ms"]
      ? {
          webhookRetryIntervalMs: whole(
            "retry-interval-ms",
            values["retry-interval-ms"] as string,
            15_000,
          ),
        }
      : {}),
  });
  const { config } = sandbox.runtime();
  console.log(
    [
      `merchantkit sandbox listening on ${sandbox.url}`,
      `  payout        ${sandbox.url}/payout`,
      `  account       ${sandbox.url}/account-server`,
      `  issuing       ${sandbox.url}/api/v1/merchant`,
      `  profit share  ${sandbox.url}/profit/share, /profit/query`,
      `  admin         ${sandbox.url}/__sandbox`,
      `merchantNo      ${config.merchantNo} (children: ${config.children.join(", ") || "none"})`,
      `secretKey       ${config.secretKey}`,
      `issuing ApiKey  ${config.issuingApiKey}`,
      `account apikey  ${config.accountApiKey}`,
      `webhookSecret   ${config.webhookSecret} (Base64)`,
      `webhooks        ${webhookUrl ?? "none configured (pushes are logged as undeliverable)"}`,
    ].join("\n"),
  );
  const stop = (signal: string) => {
    console.log(`\n${signal}: stopping`);
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
