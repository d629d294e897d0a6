// Test support: a primary Postgres cluster and a hot standby streaming from it, both throwaway
// clusters on this machine (initdb, pg_basebackup -R, pg_ctl), as the postgres user when run as
// root (Postgres refuses root). Their binaries are the server's own (/usr/lib/postgresql/*/bin).
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Standby {
  primaryUrl: string;
  standbyUrl: string;
  stop(): void;
}

function postgresBin(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).sort() : [];
  const found = versions
    .map((v) => join(root, v, "bin"))
    .filter((d) => existsSync(join(d, "initdb")));
  const bin = found.at(-1);
  if (!bin) throw new Error("no PostgreSQL server binaries (initdb) in /usr/lib/postgresql/*/bin");
  return bin;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });

/** Starts the two clusters; `stop()` stops them and removes their folders. */
export async function startStandby(): Promise<Standby> {
  const bin = postgresBin();
  const root = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), "reconciler-standby-"));
  if (root) execFileSync("chown", ["postgres", dir]);
  const run = (tool: string, args: string[]) =>
    execFileSync(
      root ? "runuser" : join(bin, tool),
      root ? ["-u", "postgres", "--", join(bin, tool), ...args] : args,
      {
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
  const [primaryPort, standbyPort] = [await freePort(), await freePort()];
  const primary = join(dir, "primary");
  const standby = join(dir, "standby");
  const options = (port: number) =>
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c wal_level=replica`;
  const stop = () => {
    for (const data of [standby, primary])
      if (existsSync(join(data, "postmaster.pid")))
        try {
          run("pg_ctl", ["-D", data, "-m", "immediate", "stop"]);
        } catch {
          // Already gone.
        }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    run("initdb", ["-D", primary, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8"]);
    run("pg_ctl", [
      "-D",
      primary,
      "-l",
      join(dir, "primary.log"),
      "-w",
      "-o",
      options(primaryPort),
      "start",
    ]);
    // -R writes standby.signal and primary_conninfo: the copy starts as a streaming standby.
    run("pg_basebackup", [
      "-D",
      standby,
      "-R",
      "-X",
      "stream",
      "-h",
      "127.0.0.1",
      "-p",
      String(primaryPort),
      "-U",
      "postgres",
    ]);
    if (root)
      chownSync(standby, Number(execFileSync("id", ["-u", "postgres"]).toString().trim()), -1);
    run("pg_ctl", [
      "-D",
      standby,
      "-l",
      join(dir, "standby.log"),
      "-w",
      "-o",
      options(standbyPort),
      "start",
    ]);
  } catch (error) {
    stop();
    throw error;
  }
  return {
    primaryUrl: `postgres://postgres@127.0.0.1:${primaryPort}/postgres`,
    standbyUrl: `postgres://postgres@127.0.0.1:${standbyPort}/postgres`,
    stop,
  };
}
