// Who may use the console: a token (RECONCILER_CONSOLE_TOKEN) exchanged at login for a session
// cookie (HttpOnly, SameSite=Strict) and a form token every POST must carry, so another site
// cannot act on a break through a logged-in browser (console-app.ts also checks the origin).
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

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

export function sessionCookie(id: string, maxAgeSeconds: number): string {
  return `${SESSION_COOKIE}=${id}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${maxAgeSeconds}`;
}

/** Loopback names the console may be reached by when it listens on loopback (DNS rebinding). */
export function isLoopbackHost(host: string): boolean {
  return host === "127.0.0.1" || host === "::1" || host === "localhost";
}
