// Reaching a Postgres server by URL within a bound. postgres.js 3.4 keeps trying a host that
// drops packets, or a list of hosts that all refuse, for ever (its connect_timeout
// notwithstanding), and a command would hang with no output. The first query of a new pool is
// raced against a deadline.

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
 * Whether postgres.js can read `url` (it parses a URL with its first host alone, and throws a
 * bare "TypeError: Invalid URL" on, say, a port that is no number). Answers what is wrong with
 * it, never quoting it (it may hold a password), or undefined when it can be read.
 */
export function databaseUrlProblem(url: string): string | undefined {
  if (!/^postgres(ql)?:\/\//.test(url)) return "must be a postgres:// or postgresql:// URL";
  // As postgres.js reads it: the hosts (after any user:password@), the first one alone.
  const rest = url.slice(url.indexOf("://") + 3).split(/[?/]/)[0] ?? "";
  let hosts: string;
  try {
    hosts = decodeURIComponent(rest.slice(rest.indexOf("@") + 1));
  } catch {
    return "is not a valid URL (a bad %-escape in its host)";
  }
  let parsed: URL;
  try {
    parsed = new URL(url.replace(hosts, hosts.split(",")[0] ?? ""));
  } catch {
    return "is not a valid URL (check the host and the port: a number from 1 to 65535)";
  }
  // The driver decodes the user and password too: a raw "%" there would fail in it with a bare
  // "URIError: URI malformed", naming nothing.
  try {
    decodeURIComponent(parsed.username);
    decodeURIComponent(parsed.password);
  } catch {
    return 'is not a valid URL (a bad %-escape in its user or password: write "%" as "%25")';
  }
  for (const host of hosts.split(",").slice(1)) {
    const port = host.slice(host.lastIndexOf(":") + 1);
    if (host.includes(":") && !host.endsWith("]") && !/^\d{1,5}$/.test(port))
      return "is not a valid URL (check the ports of its hosts: numbers from 1 to 65535)";
  }
  return undefined;
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
  // A refusal at once (nothing listening, an unknown host) names the server too: the driver's
  // "connect ECONNREFUSED 127.0.0.1:5999" says neither what nor where.
  const named = first.catch((error: NodeJS.ErrnoException) => {
    if (typeof error?.code !== "string" || !/^E[A-Z_]+$/.test(error.code)) throw error;
    throw new Error(
      `could not connect to the database at ${describeDatabaseUrl(url)}: ${error.code}`,
      {
        cause: error,
      },
    );
  });
  try {
    return await Promise.race([named, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
