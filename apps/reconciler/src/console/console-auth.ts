// Who may use the console: a token (RECONCILER_CONSOLE_TOKEN) exchanged at login for a session
// cookie (HttpOnly, SameSite=Strict), and POSTs that must carry the session's form token and
// come from the console's own pages (Origin and Sec-Fetch-Site checked when the browser sends
// them), so another site cannot act on a break through a logged-in browser.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

export const SESSION_COOKIE = "reconciler_console";

export interface Session {
  /** Who acts in the audit trail (asked at login). */
  actor: string;
  /** Sent back in every form; a POST without it is refused. */
  formToken: string;
  expiresAt: number;
}

const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();

/** Compares in constant time (hashes first, so the lengths do not leak either). */
export function tokenMatches(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** In-memory sessions: a restart logs everyone out, which is the safe side. */
export class Sessions {
  readonly #sessions = new Map<string, Session>();
  constructor(private readonly ttlMs = 12 * 3600_000) {}

  create(actor: string): { id: string; session: Session } {
    const id = randomBytes(32).toString("base64url");
    const session = {
      actor,
      formToken: randomBytes(24).toString("base64url"),
      expiresAt: Date.now() + this.ttlMs,
    };
    this.#sessions.set(id, session);
    return { id, session };
  }

  get(id: string | undefined): Session | undefined {
    if (!id) return undefined;
    const session = this.#sessions.get(id);
    if (session && session.expiresAt < Date.now()) {
      this.#sessions.delete(id);
      return undefined;
    }
    return session;
  }

  delete(id: string | undefined): void {
    if (id) this.#sessions.delete(id);
  }
}

export function cookieOf(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function sessionCookie(id: string, maxAgeSeconds: number): string {
  return `${SESSION_COOKIE}=${id}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${maxAgeSeconds}`;
}

/**
 * Why a POST is refused as cross-site, or undefined when it is not: an Origin other than the
 * console's own, or a Sec-Fetch-Site other than same-origin (or none: typed by the user).
 */
export function crossSiteReason(req: IncomingMessage): string | undefined {
  const site = req.headers["sec-fetch-site"];
  if (typeof site === "string" && site !== "same-origin" && site !== "none")
    return `Sec-Fetch-Site is ${site}`;
  const origin = req.headers.origin;
  if (typeof origin === "string" && origin !== "null") {
    const host = req.headers.host;
    if (!host || (origin !== `http://${host}` && origin !== `https://${host}`))
      return `Origin ${origin} is not this console`;
  } else if (origin === "null") return "Origin is null";
  return undefined;
}

/** Loopback names the console may be reached by when it listens on loopback (DNS rebinding). */
export function isLoopbackHost(host: string): boolean {
  return host === "127.0.0.1" || host === "::1" || host === "localhost";
}
