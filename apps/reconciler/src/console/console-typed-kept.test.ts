// A refused action's page keeps what the person typed: a 409 shows the text again in the form it
// was typed in, or in the comment form when that form is gone (someone else accepted first).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConsoleFixture, type ConsoleUserName, consoleFixture } from "../testing/console";
import { testBackends } from "../testing/databases";
import { applyBreakAction } from "../workflow/break-actions";

let f: ConsoleFixture;

async function signIn(name: ConsoleUserName): Promise<string> {
  const res = await f.signIn(name);
  return (res.headers.get("set-cookie") ?? "").split(";")[0] as string;
}

/** The hidden fields of a break page's form, as shown now. */
async function formOf(id: string, action: string, cookie: string): Promise<Record<string, string>> {
  const page = await (await fetch(`${f.console.url}/breaks/${id}`, { headers: { cookie } })).text();
  const form =
    new RegExp(`<form[^>]*id="${action}-form">([\\s\\S]*?)</form>`).exec(page)?.[1] ?? "";
  return Object.fromEntries(
    [...form.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)"/g)].map((m) => [
      m[1] as string,
      (m[2] as string).replaceAll("&amp;", "&"),
    ]),
  );
}

const act = (id: string, cookie: string, form: Record<string, string>) =>
  fetch(`${f.console.url}/breaks/${id}/actions`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie },
    body: new URLSearchParams(form),
  });

const textareaOf = (page: string, action: string) =>
  new RegExp(`id="${action}-form">[\\s\\S]*?<textarea[^>]*>([^<]*)</textarea>`).exec(page)?.[1];

describe.each(testBackends())("a refused action's typed text on %s", (kind) => {
  beforeAll(async () => {
    f = await consoleFixture(kind);
  }, 120_000);
  afterAll(async () => {
    await f?.close();
  });

  it("shows the name typed into an assign from a stale page again in the assign form (409)", async () => {
    const cookie = await signIn("alice");
    const id = f.ids[2] as string;
    const stale = await formOf(id, "assign", cookie);
    await applyBreakAction(f.database.db, {
      breakId: id,
      action: "assign",
      actor: "bob",
      text: "bob",
    });
    const res = await act(id, cookie, { ...stale, text: 'Dana "D" <Ops>' });
    expect(res.status).toBe(409);
    const page = await res.text();
    expect(/id="assign-form">[\s\S]*?<input name="text"[^>]*value="([^"]*)"/.exec(page)?.[1]).toBe(
      "Dana &quot;D&quot; &lt;Ops&gt;",
    );
  });

  it("keeps an accept's reason in the comment form when someone else accepted first", async () => {
    const cookie = await signIn("alice");
    const id = f.ids[0] as string;
    const stale = await formOf(id, "accept", cookie);
    await applyBreakAction(f.database.db, {
      breakId: id,
      action: "accept",
      actor: "bob",
      text: "ok",
    });
    const res = await act(id, cookie, { ...stale, text: "bank fee agreed (FIN-881)" });
    expect(res.status).toBe(409);
    const page = await res.text();
    expect(page).not.toContain('id="accept-form"');
    expect(textareaOf(page, "comment")).toBe("bank fee agreed (FIN-881)");
  });
});
