/**
 * Starts the sandbox's bin in a CHILD process for benchmarks, so the server's work does not
 * share the measuring process's CPU, and waits for its banner (origin and credentials).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

export interface SandboxChild {
  process: ChildProcess;
  /** The sandbox's origin. */
  url: string;
  /** Everything the child printed so far (its banner lists the test credentials). */
  output: string;
}

/** The credential the banner prints after `label` (e.g. "secretKey", "issuing ApiKey"). */
export function bannerValue(output: string, label: string): string {
  const match = new RegExp(`${label}\\s+(\\S+)`).exec(output);
  if (!match?.[1]) throw new Error(`no ${label} in the sandbox's banner:\n${output}`);
  return match[1];
}

export function spawnSandbox(): Promise<SandboxChild> {
  const child = spawn(
    process.execPath,
    [
      "--conditions=@merchantkit/source",
      "--import",
      "tsx",
      "packages/sandbox/src/bin.ts",
      "--port",
      "0",
    ],
    { cwd: root, stdio: ["ignore", "pipe", "pipe"] },
  );
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`sandbox did not start:\n${output}`)), 30_000);
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/[\d.]+:\d+)/.exec(output)?.[1];
      // The banner ends with the credentials; wait for the last of them.
      if (url && /issuing ApiKey\s+\S+/.test(output) && /secretKey\s+\S+/.test(output)) {
        clearTimeout(timer);
        resolve({ process: child, url, output });
      }
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`sandbox exited with ${code}:\n${output}`));
    });
  });
}
