// The console's HTTP plumbing (Hono's secure headers, body limit and cookies): every answer,
// a redirect and a refusal too, carries the security headers; a form too large is 413 and one
// that is not urlencoded 415, both writing nothing; another method is 405; signing out ends
// the session.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConsoleFixture, consoleFixture } from "../testing/console";
import { testBackends } from "../testing/databases";
import { breakHistory } from "../workflow/break-queries";

let f: ConsoleFixture;

async function signIn(): Promise<{ cookie: string; formToken: string }> {
  const res = await f.signIn("alice");
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0] as string;
  const page = await (await fetch(`${f.console.url}/breaks`, { headers: { cookie } })).text();
  const formToken = /name="form_token" value="([^"]+)"/.exec(page)?.[1] as string;
  return { cookie, formToken };
}

describe.each(testBackends())("the console's HTTP plumbing on %s", (kind) => {
  beforeAll(async () => {
    f = await consoleFixture(kind);
  }, 120_000);
  afterAll(async () => {
    await f?.close();
  });

  it("sends the security headers with redirects and refusals, and no HSTS", async () => {
    const answers = [
      await fetch(`${f.console.url}/breaks`, { redirect: "manual" }),
      await fetch(`${f.console.url}/breaks`, { method: "POST" }),
      await fetch(`${f.console.url}/login`),
    ];
    expect(answers.map((r) => r.status)).toEqual([303, 401, 200]);
    for (const res of answers) {
      expect(res.headers.get("content-security-policy")).toBe(
        "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      );
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("referrer-policy")).toBe("same-origin");
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("strict-transport-security")).toBeNull();
    }
  });

  it("refuses a form over 64 KiB (413) and one that is not urlencoded (415), writing nothing", async () => {
    const { cookie, formToken } = await signIn();
    const id = f.ids[0] as string;
    const form = { action: "comment", form_token: formToken, seen_action: "0" };
    const big = await fetch(`${f.console.url}/breaks/${id}/actions`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({ ...form, text: "x".repeat(70 * 1024) }),
    });
    const json = await fetch(`${f.console.url}/breaks/${id}/actions`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ ...form, text: "hi" }),
    });
    expect([big.status, json.status]).toEqual([413, 415]);
    expect(await big.text()).toContain("the form is too large");
    expect(await json.text()).toContain("forms only (application/x-www-form-urlencoded)");
    expect(await breakHistory(f.database.db, id)).toEqual([]);
  });

  it("answers another method 405 and an unknown page 404; signing out ends the session", async () => {
    const { cookie, formToken } = await signIn();
    const put = await fetch(`${f.console.url}/breaks`, { method: "PUT", headers: { cookie } });
    const missing = await fetch(`${f.console.url}/nowhere`, { headers: { cookie } });
    expect([put.status, missing.status]).toEqual([405, 404]);
    const out = await fetch(`${f.console.url}/logout`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({ form_token: formToken }),
    });
    expect([out.status, out.headers.get("location")]).toEqual([303, "/login"]);
    expect(out.headers.get("set-cookie")).toMatch(/^reconciler_console=; .*Max-Age=0/);
    const after = await fetch(`${f.console.url}/breaks`, {
      redirect: "manual",
      headers: { cookie },
    });
    expect([after.status, after.headers.get("location")]).toEqual([303, "/login"]);
  });
});
