// Reaching a Postgres server by URL within a bound. postgres.js 3.4 keeps trying a host that
// drops packets, or a list of hosts that all refuse, for ever (its connect_timeout
// notwithstanding; seen with the driver alone): `run`, `sync` or a cron job hung with no output
// and one SIGTERM did not end it. The first query of a new pool is raced against a deadline.

/** How long reaching the server may take before it counts as unreachable. */
export const CONNECT_TIMEOUT_MS = 30_000;

/** host:port/database of a URL, never its user or password. */
export function describeDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}${u.port ? `:${u.port}` : ""}${u.pathname}`;
  } catch {
    return "(an unreadable URL)";
  }
}

/**
 * `first` (a new pool's first query), or an error naming the server (never its user or
 * password) once `ms` pass without it. The caller ends the pool either way on failure.
 */
export async function reachedWithin<T>(first: Promise<T>, ms: number, url: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `could not reach the database at ${describeDatabaseUrl(url)} within ${ms / 1000} s`,
          ),
        ),
      ms,
    );
  });
  try {
    return await Promise.race([first, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
