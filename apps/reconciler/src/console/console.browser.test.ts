// The console in a real browser (Debian's chromium through playwright-core): sign in with the
// token, filter the queue, open a break, accept it with a reason, see it leave the queue,
// reload and find it accepted with its audit row; a wrong token is refused. Screenshots of the
// queue and of a break page go to apps/reconciler/test-output/console/ (gitignored).
import { existsSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ConsoleFixture,
  type ConsoleUserName,
  consoleFixture,
  HOSTILE,
} from "../testing/console";
import { applyBreakAction } from "../workflow/break-actions";
import { breakHistory } from "../workflow/break-queries";

const CHROMIUM = "/usr/bin/chromium";
const OUT = fileURLToPath(new URL("../../test-output/console/", import.meta.url));

describe("the console in Chromium", () => {
  let f: ConsoleFixture;
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(`${CHROMIUM} is missing: apt-get install chromium (.ci/run does it)`);
    mkdirSync(OUT, { recursive: true });
    f = await consoleFixture();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
      ],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await f?.close();
  });

  const signIn = async (name: ConsoleUserName, password = f.passwords[name]) => {
    await page.goto(`${f.console.url}/breaks`);
    expect(new URL(page.url()).pathname).toBe("/login");
    await page.fill('input[name="name"]', name);
    await page.fill('input[name="password"]', password);
    await Promise.all([page.waitForLoadState("load"), page.click("#login button")]);
  };

  it("refuses a wrong password", async () => {
    await signIn("alice", "wrong-password-wrong");
    expect(await page.textContent('[role="alert"]')).toContain("Wrong name or password");
    await page.goto(`${f.console.url}/breaks`);
    expect(new URL(page.url()).pathname).toBe("/login");
  });

  it("signs in, filters, accepts a break with a reason; it leaves the queue and stays accepted", async () => {
    await signIn("alice");
    expect(new URL(page.url()).pathname).toBe("/breaks");
    expect(await page.locator("#queue tbody tr").count()).toBe(3);
    // Filter: breaks assigned to carol (one).
    await page.fill('input[name="assignee"]', "carol");
    await Promise.all([page.waitForURL(/assignee=carol/), page.click("#filters button")]);
    expect(await page.locator("#queue tbody tr").count()).toBe(1);
    // The status select applies on change (the console's script).
    await Promise.all([
      page.waitForURL(/status=open/),
      page.selectOption('select[name="status"]', "open"),
    ]);
    expect(await page.locator("#queue tbody tr").count()).toBe(1);
    const id = f.ids[1] as string;
    await Promise.all([
      page.waitForURL(new RegExp(`/breaks/${id}$`)),
      page.click(`#queue a:text("${id}")`),
    ]);
    // The injected markup is shown as text, not run.
    expect(await page.locator("#history").textContent()).toContain(HOSTILE);
    expect(await page.title()).not.toBe("pwned");
    await page.fill("#accept-form textarea", "Bank fee agreed with the card scheme (FIN-881)");
    await Promise.all([page.waitForLoadState("load"), page.click("#accept-form button")]);
    expect(await page.locator("#summary").textContent()).toContain("accepted");
    await page.screenshot({ path: `${OUT}break-page.png`, fullPage: true });
    await page.goto(`${f.console.url}/breaks`);
    const queue = await page.locator("#queue").textContent();
    expect(queue).not.toContain(id);
    expect(await page.locator("#queue tbody tr").count()).toBe(2);
    await page.screenshot({ path: `${OUT}queue.png`, fullPage: true });
    await page.goto(`${f.console.url}/breaks/${id}`);
    await page.reload();
    expect(await page.locator("#summary").textContent()).toContain("by alice at");
    const rows = await page.locator("#history tbody tr").allTextContents();
    expect(rows.at(-1)).toMatch(
      /alice\s*accept\s*Bank fee agreed with the card scheme \(FIN-881\)/,
    );
    const stored = await breakHistory(f.database.db, id);
    expect(stored.at(-1)).toMatchObject({ actor: "alice", action: "accept" });
    expect(existsSync(`${OUT}queue.png`) && existsSync(`${OUT}break-page.png`)).toBe(true);
  });
  it("fits 1366 px without a horizontal scroll: dates on one line, a comment's line breaks shown, a 2,000-character word wrapped", async () => {
    const id = f.ids[0] as string;
    const word = "x".repeat(2000);
    for (const text of ["called the bank\nrefund on its way", word])
      await applyBreakAction(f.database.db, { breakId: id, action: "comment", actor: "bob", text });
    const wide = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    try {
      await wide.context().addCookies(await page.context().cookies());
      // Run in the page (expressions: this package's types carry no DOM).
      const noScroll = () =>
        wide.evaluate<boolean>(
          "document.documentElement.scrollWidth <= document.documentElement.clientWidth",
        );
      /** How many lines each matched cell's text takes. */
      const lines = (selector: string) =>
        wide.$$eval(selector, (cells) =>
          cells.map((cell) => {
            const range = cell.ownerDocument.createRange();
            range.selectNodeContents(cell);
            return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
          }),
        );
      for (const path of ["/", "/breaks?status=all", `/breaks/${id}`]) {
        await wide.goto(`${f.console.url}${path}`);
        expect(new URL(wide.url()).pathname).not.toBe("/login");
        expect(await noScroll(), path).toBe(true);
      }
      // The break page: the history's times on one line, the comment's two lines kept.
      expect((await lines("#history td:nth-child(1)")).every((n) => n === 1)).toBe(true);
      const texts = await wide.locator("#history td:nth-child(4)").allInnerTexts();
      expect(texts).toContain("called the bank\nrefund on its way");
      expect(texts).toContain(word);
      await wide.goto(`${f.console.url}/breaks?status=all`);
      expect((await lines("#queue td:nth-child(5)")).every((n) => n === 1)).toBe(true);
      await wide.screenshot({ path: `${OUT}queue-1366.png`, fullPage: true });
    } finally {
      await wide.close();
    }
  });
});
