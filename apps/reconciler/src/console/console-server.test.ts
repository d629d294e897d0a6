// The console over HTTP: nothing without a session, the token checked at login, POSTs refused
// without the session's form token or from another origin (and nothing written then), text
// from the database escaped, and a loopback console refusing foreign Host names.
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryText } from "../db/query-rows";
import { testBackends } from "../db/test-databases";
import { breakHistory } from "../workflow/break-queries";
import { startConsole } from "./console-server";
import { type ConsoleFixture, consoleFixture, HOSTILE, TEST_TOKEN } from "./test-console";

let f: ConsoleFixture;
let base: string;

async function login(token = TEST_TOKEN, at = base): Promise<Response> {
  return fetch(`${at}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ actor: "alice", token }),
  });
}

/** A signed-in session on the console at `at` (the fixture's unless given). */
async function session(at = base): Promise<{ cookie: string; formToken: string }> {
  const res = await login(TEST_TOKEN, at);
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0] as string;
  const page = await (await fetch(`${at}/breaks/${f.ids[0]}`, { headers: { cookie } })).text();
  const formToken = /name="form_token" value="([^"]+)"/.exec(page)?.[1] as string;
  return { cookie, formToken };
}

const post = (path: string, cookie: string, form: Record<string, string>, headers = {}) =>
  fetch(`${base}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie, ...headers },
    body: new URLSearchParams(form),
  });

describe.each(testBackends())("the console over HTTP on %s", (kind) => {
  beforeAll(async () => {
    f = await consoleFixture(kind);
    base = f.console.url;
  }, 120_000);
  afterAll(async () => {
    await f?.close();
  });

  it("sends to the login without a session and refuses a wrong token", async () => {
    const res = await fetch(`${base}/breaks`, { redirect: "manual" });
    expect([res.status, res.headers.get("location")]).toEqual([303, "/login"]);
    const wrong = await login("not-the-token");
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("set-cookie")).toBeNull();
    expect(await wrong.text()).toContain("Wrong token");
  });

  it("sets an HttpOnly SameSite=Strict session cookie and serves the pages with a strict CSP", async () => {
    const res = await login();
    expect(res.status).toBe(303);
    expect(res.headers.get("set-cookie")).toMatch(/HttpOnly; SameSite=Strict; Path=\//);
    const { cookie } = await session();
    const queue = await fetch(`${base}/breaks`, { headers: { cookie } });
    expect(queue.headers.get("content-security-policy")).toContain("script-src 'self'");
    const html = await queue.text();
    expect(html).toContain('<td class="n">1,250.50 EUR</td>');
    const report = await (await fetch(`${base}/`, { headers: { cookie } })).text();
    expect(report).toContain("Provider vs ledger per currency");
  });

  it("escapes text from the database", async () => {
    const { cookie } = await session();
    const page = await (await fetch(`${base}/breaks/${f.ids[1]}`, { headers: { cookie } })).text();
    expect(page).not.toContain(HOSTILE);
    expect(page).toContain("&lt;img src=x onerror=&quot;document.title=&#39;pwned&#39;&quot;&gt;");
  });

  it("refuses POSTs without the form token, from another origin or another site; writes nothing", async () => {
    const { cookie, formToken } = await session();
    const id = f.ids[2] as string;
    const form = { action: "accept", text: "ok", form_token: formToken };
    const refused = [
      await post(`/breaks/${id}/actions`, cookie, { action: "accept", text: "ok" }),
      await post(`/breaks/${id}/actions`, cookie, form, { origin: "https://evil.example" }),
      await post(`/breaks/${id}/actions`, cookie, form, { "sec-fetch-site": "cross-site" }),
      await post(`/breaks/${id}/actions`, "", form),
    ];
    expect(refused.map((r) => r.status)).toEqual([403, 403, 403, 401]);
    expect(await breakHistory(f.database.db, id)).toEqual([]);
    const ok = await post(`/breaks/${id}/actions`, cookie, form, { origin: base });
    expect([ok.status, ok.headers.get("location")]).toEqual([303, `/breaks/${id}`]);
    expect((await breakHistory(f.database.db, id)).map((h) => [h.action, h.actor])).toEqual([
      ["accept", "alice"],
    ]);
    const twice = await post(`/breaks/${id}/actions`, cookie, form);
    expect(twice.status).toBe(409);
    expect(await twice.text()).toContain("already accepted (by alice");
  });

  it("refuses an accept of figures the page showed but a run changed since (409, the new page)", async () => {
    const { cookie, formToken } = await session();
    const id = f.ids[0] as string;
    const page = await (await fetch(`${base}/breaks/${id}`, { headers: { cookie } })).text();
    const form = /<form[^>]*id="accept-form">([\s\S]*?)<\/form>/.exec(page)?.[1] ?? "";
    const seen = Object.fromEntries(
      [...form.matchAll(/name="(seen_\w+)" value="([^"]*)"/g)].map((m) => [m[1], m[2]]),
    );
    expect(seen).toEqual({
      seen_amount: "1250.50",
      seen_provider_amount: "",
      seen_ledger_amount: "-1250.50",
      seen_status: "open",
    });
    const db = f.database.db;
    // What a match run writes when the entry is rebooked with the opposite sign.
    await queryText(db, `UPDATE breaks SET ledger_amount = 1250.50 WHERE break_id = '${id}'`);
    try {
      const res = await post(`/breaks/${id}/actions`, cookie, {
        ...seen,
        action: "accept",
        text: "ok",
        form_token: formToken,
      });
      expect(res.status).toBe(409);
      expect(await res.text()).toContain(
        "changed since it was shown (ledger amount -1250.50 is now 1250.50)",
      );
      expect(await breakHistory(db, id)).toEqual([]);
    } finally {
      await queryText(db, `UPDATE breaks SET ledger_amount = -1250.50 WHERE break_id = '${id}'`);
    }
  });

  it("answers only to loopback Host names (DNS rebinding)", async () => {
    const { port } = new URL(base);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        { host: "127.0.0.1", port, path: "/login", headers: { host: `rebound.example:${port}` } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(421);
  });

  it("answers a malformed % escape in a break's path 400, without an error in its log", async () => {
    const logged: string[] = [];
    const own = await startConsole({
      db: f.database.db,
      token: TEST_TOKEN,
      port: 0,
      log: (line) => logged.push(line),
    });
    try {
      const { cookie, formToken } = await session(own.url);
      const get = await fetch(`${own.url}/breaks/%E0%A4%A`, { headers: { cookie } });
      const posted = await fetch(`${own.url}/breaks/%E0%A4%A/actions`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie },
        body: new URLSearchParams({ action: "comment", text: "x", form_token: formToken }),
      });
      expect([get.status, posted.status]).toEqual([400, 400]);
      expect(await get.text()).toContain("malformed % escape");
      expect(logged).toEqual([]);
    } finally {
      await own.close();
    }
  });
  // Stopped (SIGTERM) while an accept waited on a match run's lock, the console cut the
  // connection at once: the browser got an empty reply, and the action committed seconds later
  // (a retried comment was written twice). The request in hand now finishes and is answered.
  if (kind === "postgres")
    it("answers the request in hand when it is stopped, then stops (run last: it closes the console)", async () => {
      const { cookie, formToken } = await session();
      const id = f.ids[2] as string;
      const other = await f.database.openAnother();
      let release = () => {};
      const released = new Promise<void>((r) => {
        release = r;
      });
      let locked = () => {};
      const isLocked = new Promise<void>((r) => {
        locked = r;
      });
      const holding = other.db.transaction(async (tx) => {
        await queryText(tx, "LOCK TABLE break_workflow IN ACCESS EXCLUSIVE MODE");
        locked();
        await released;
      });
      try {
        await isLocked;
        const answer = post(`/breaks/${id}/actions`, cookie, {
          action: "comment",
          text: "in hand at the stop",
          form_token: formToken,
        });
        await new Promise((r) => setTimeout(r, 300)); // the comment waits on the lock
        const closed = f.console.close();
        await new Promise((r) => setTimeout(r, 300));
        release();
        expect((await answer).status).toBe(303);
        await closed;
        expect((await breakHistory(f.database.db, id)).map((h) => h.text)).toContain(
          "in hand at the stop",
        );
      } finally {
        release();
        await holding;
        await other.close();
      }
    });
});
