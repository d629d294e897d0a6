// The console in a real browser (Debian's chromium through playwright-core), as several people
// with their own accounts: a wrong password refused; a viewer reads, downloads an export and is
// offered no action; an approver filters the queue, opens a break, accepts it with a reason, sees
// it leave the queue and finds it accepted under her name; a preparer rejects a proposal, an
// approver confirms the other and writes a break off; an approver matches two records by hand and
// unmatches them once a run applied the match; an accept above the second-approval amount
// waits until another approver approves it. Screenshots of the queue and of a break page go to
// apps/reconciler/test-output/console/ (gitignored).
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryText } from "../db/query-rows";
import { runMatch } from "../match/run-match";
import { TEST_AS_OF } from "../testing/breaks";
import {
  type ConsoleFixture,
  type ConsoleUserName,
  consoleFixture,
  HOSTILE,
} from "../testing/console";
import { applyBreakAction } from "../workflow/break-actions";
import { breakHistory, showBreak } from "../workflow/break-queries";

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
    // EUR above 1,000.00 needs a second approver (the 1,250.50 EUR break).
    f = await consoleFixture("pglite", {
      proposals: true,
      secondApproval: { byCurrency: { EUR: "1000.00" }, other: undefined },
    });
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

  const signIn = async (
    name: ConsoleUserName,
    password = f.passwords[name],
    on: Page = page,
  ): Promise<void> => {
    await on.goto(`${f.console.url}/breaks`);
    expect(new URL(on.url()).pathname).toBe("/login");
    await on.fill('input[name="name"]', name);
    await on.fill('input[name="password"]', password);
    await Promise.all([on.waitForLoadState("load"), on.click("#login button")]);
  };

  /** A page of its own browser context (its own cookies) signed in as `name`. */
  const personPage = async (
    name: ConsoleUserName,
  ): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    });
    const own = await context.newPage();
    await signIn(name, f.passwords[name], own);
    expect(new URL(own.url()).pathname).toBe("/breaks");
    return { context, page: own };
  };

  /** Submits the form `#<id>-form` of the page, waiting for the page it answers with. */
  const submit = (on: Page, id: string) =>
    Promise.all([on.waitForLoadState("load"), on.click(`#${id}-form button`)]);

  it("refuses a wrong password", async () => {
    await signIn("alice", "wrong-password-wrong");
    expect(await page.textContent('[role="alert"]')).toContain("Wrong name or password");
    await page.goto(`${f.console.url}/breaks`);
    expect(new URL(page.url()).pathname).toBe("/login");
  });

  it("signs in, filters, accepts a break with a reason; it leaves the queue and stays accepted", async () => {
    await signIn("alice");
    expect(new URL(page.url()).pathname).toBe("/breaks");
    expect(await page.locator("#queue tbody tr").count()).toBe(5);
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
    expect(await page.locator("#queue tbody tr").count()).toBe(4);
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
  it("a viewer reads the queue and a break, downloads the breaks as CSV, is offered no action, and signs out", async () => {
    const vic = await personPage("vic");
    try {
      const p = vic.page;
      expect(await p.locator("header .who").textContent()).toBe("signed in as vic (viewer)");
      const [download] = await Promise.all([
        p.waitForEvent("download"),
        p.click("#export-breaks-csv"),
      ]);
      expect(download.suggestedFilename()).toBe("reconciler-breaks.csv");
      const csv = readFileSync((await download.path()) as string, "utf8")
        .trim()
        .split("\r\n");
      expect(csv[0]?.startsWith("break_id,class,status")).toBe(true);
      expect(csv).toHaveLength(1 + (await p.locator("#queue tbody tr").count()));
      await p.goto(`${f.console.url}/breaks/${f.ids[0]}`);
      expect(await p.locator("#summary").textContent()).toContain("1,250.50 EUR");
      expect(await p.locator("form[id$='-form']").count()).toBe(0);
      expect(await p.locator("#read-only").textContent()).toContain("You are a viewer");
      await Promise.all([p.waitForURL(/\/login$/), p.click("header form button")]);
      await p.goto(`${f.console.url}/breaks`);
      expect(new URL(p.url()).pathname).toBe("/login");
    } finally {
      await vic.context.close();
    }
  });

  it("a preparer rejects one proposal; an approver confirms the other and writes a break off", async () => {
    const [paula, alice] = [await personPage("paula"), await personPage("alice")];
    try {
      const [e1, e2] = f.proposals as [string, string];
      await paula.page.goto(`${f.console.url}/breaks/${e2}`);
      expect(await paula.page.locator("#confirm-form").count()).toBe(0);
      await paula.page.fill("#reject-form textarea", "a different purchase on the same card");
      await submit(paula.page, "reject");
      expect(await paula.page.locator("#history").textContent()).toContain(
        "a different purchase on the same card",
      );
      await alice.page.goto(`${f.console.url}/breaks/${e1}`);
      await alice.page.fill("#confirm-form textarea", "same purchase, tip added");
      await submit(alice.page, "confirm");
      expect((await breakHistory(f.database.db, e1)).map((h) => [h.actor, h.action])).toEqual([
        ["alice", "confirm"],
      ]);
      expect((await breakHistory(f.database.db, e2)).map((h) => [h.actor, h.action])).toEqual([
        ["paula", "reject"],
      ]);
      const id = f.ids[2] as string; // 10 HKD
      await alice.page.goto(`${f.console.url}/breaks/${id}`);
      await alice.page.fill('#write_off-form input[name="account"]', "6800 Bank fees");
      await alice.page.fill("#write_off-form textarea", "bank charge, FIN-12");
      await submit(alice.page, "write_off");
      expect(await alice.page.locator("#summary").textContent()).toContain("by alice at");
      expect((await showBreak(f.database.db, id))?.break.status).toBe("accepted");
    } finally {
      await paula.context.close();
      await alice.context.close();
    }
  });

  it("an approver matches two records by hand and, after the run applied it, unmatches it; a preparer is offered no Unmatch", async () => {
    const at = "2026-05-04T12:00:00Z";
    await queryText(
      f.database.db,
      `INSERT INTO card_transactions (txn_order_no, card_id, txn_type, txn_status, transaction_time,
         card_amount, card_currency, settle_amount, settle_currency, settle_time, raw, raw_hash,
         version, source)
       VALUES ('P6', '601', 'CLEARING', 'S', '${at}', 25.00, 'USD', 25.00, 'USD', '${at}', '{}', '0', 1, 'sync')`,
    );
    await queryText(
      f.database.db,
      `INSERT INTO ledger_entries (entry_id, kind, provider_ref, amount, currency, booked_at, card_id)
       VALUES ('E6', 'card_transaction', 'X-E6', -25.00, 'USD', '${at}', '602')`,
    );
    const run = () =>
      runMatch(f.database.db, { asOf: TEST_AS_OF, onIncomplete: "all", maxScopeShare: 1 });
    await run();
    const [row] = await queryText<{ break_id: string }>(
      f.database.db,
      "SELECT break_id FROM breaks WHERE entry_id = 'E6' AND status = 'open'",
    );
    const id = row?.break_id as string;
    const [alice, paula] = [await personPage("alice"), await personPage("paula")];
    try {
      await alice.page.goto(`${f.console.url}/breaks/${id}`);
      // Prefilled with the break's own entry E6: the provider's record is added.
      expect(await alice.page.inputValue('#match-form input[name="entries"]')).toBe("E6");
      await alice.page.fill('#match-form input[name="records"]', "P6");
      await alice.page.fill("#match-form textarea", "same payment, the key mistyped");
      await submit(alice.page, "match");
      const [m] = await queryText<{ id: string }>(
        f.database.db,
        "SELECT id::text AS id FROM manual_matches WHERE status = 'active' ORDER BY id DESC LIMIT 1",
      );
      const formId = `unmatch-${m?.id}`;
      await run();
      await alice.page.goto(`${f.console.url}/breaks/${id}`);
      expect(await alice.page.locator("#summary").textContent()).toContain("resolved");
      expect(await alice.page.locator(`#${formId}-form`).textContent()).toContain(
        `group manual:${m?.id}`,
      );
      await paula.page.goto(`${f.console.url}/breaks/${id}`);
      expect(await paula.page.locator(`#${formId}-form`).count()).toBe(0);
      await alice.page.fill(`#${formId}-form textarea`, "two payments after all");
      await submit(alice.page, formId);
      const rows = await alice.page.locator("#history tbody tr").allTextContents();
      expect(
        rows.some((r) =>
          /alice\s*unmatch\s*manual match \d+ undone: two payments after all/.test(r),
        ),
      ).toBe(true);
      await run();
      expect((await showBreak(f.database.db, id))?.break.status).toBe("open");
    } finally {
      await alice.context.close();
      await paula.context.close();
    }
  });

  it("holds an accept above the amount until a second approver approves it", async () => {
    const [alice, bob] = [await personPage("alice"), await personPage("bob")];
    try {
      const id = f.ids[0] as string; // 1,250.50 EUR
      await alice.page.goto(`${f.console.url}/breaks/${id}`);
      await alice.page.fill("#accept-form textarea", "duplicate booking, FIN-9");
      await submit(alice.page, "accept");
      expect(await alice.page.locator("#pending-approval").textContent()).toContain(
        "alice asked to accept (1,250.50 EUR)",
      );
      expect(await alice.page.locator("#approve-form").count()).toBe(0);
      expect(await alice.page.locator("#summary").textContent()).toContain("open");
      await bob.page.goto(`${f.console.url}/breaks/${id}`);
      await bob.page.fill('#approve-form input[name="text"]', "checked FIN-9");
      await submit(bob.page, "approve");
      expect(await bob.page.locator("#summary").textContent()).toContain("by alice at");
      expect(await bob.page.locator("#pending-approval").count()).toBe(0);
      const rows = await bob.page.locator("#history tbody tr").allTextContents();
      expect(rows.slice(-3).map((r) => /request_approval|accept|approve/.exec(r)?.[0])).toEqual([
        "request_approval",
        "accept",
        "approve",
      ]);
      expect(rows.at(-1)).toMatch(/bob\s*approve\s*approved alice's accept/);
    } finally {
      await alice.context.close();
      await bob.context.close();
    }
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
      /** How many lines each table cell or summary value that is a date or time takes. */
      const dateLines = () =>
        wide.$$eval("td, dd", (cells) =>
          cells
            .filter((cell) =>
              /^\d{4}-\d{2}-\d{2}([T ][\d:.]+Z?)?$/.test((cell.textContent ?? "").trim()),
            )
            .map((cell) => {
              const range = cell.ownerDocument.createRange();
              range.selectNodeContents(cell);
              return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
            }),
        );
      // The report (its daily statement), one day's statement, the queue and a break page.
      for (const path of ["/", "/?date=2026-05-01", "/breaks?status=all", `/breaks/${id}`]) {
        await wide.goto(`${f.console.url}${path}`);
        expect(new URL(wide.url()).pathname).not.toBe("/login");
        expect(await noScroll(), path).toBe(true);
        const dates = await dateLines();
        expect(dates.length, path).toBeGreaterThan(0);
        expect(
          dates.filter((n) => n !== 1),
          path,
        ).toEqual([]);
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
