/**
 * Issue 46 item 5: search. `uwf list --search` and the UI's `GET /api/threads?q=` find threads by id
 * prefix, prompt, workflow, role and field values; the threads page's search box (`thread-search`, an
 * `input type="search"`) filters the list as the user types, `/` focuses it, Escape clears it.
 * `UWF_UPDATE_SCREENSHOTS=1` also saves the filtered list as docs/images/ui-search.png.
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { resolve } from "node:path";
import { type ListResult, listResultSchema, type StepResult } from "@uwf/protocol";
import { createTempHome, LINEAR, SCRIPTED, type TempHome } from "../../helpers/temp-home.ts";
import { BROWSER_TIMEOUT, describeInBrowser, rowThreads, useUiInBrowser } from "../../helpers/ui-browser.ts";

/** `UWF_UPDATE_SCREENSHOTS=1` saves the filtered list here. */
const SCREENSHOT = resolve(import.meta.dir, "../../../../../docs/images/ui-search.png");

/** The threads both blocks search: one ended, two active whose prompts name the parser. */
async function startSearchedThreads(home: TempHome): Promise<{ ran: string; flaky: string; docs: string }> {
  const run = await home.uwf(["run", LINEAR, "-p", "Write hello.txt", "--agent", SCRIPTED, "--json"]);
  const ran = run.json<StepResult>().thread;
  const flaky = await home.startThread(LINEAR, "Fix the flaky Parser test");
  const docs = await home.startThread(LINEAR, "Document the parser");
  return { ran, flaky, docs };
}

describe("uwf list --search", () => {
  const home = createTempHome();
  let ran: string;
  let flaky: string;
  let docs: string;

  beforeAll(async () => {
    ({ ran, flaky, docs } = await startSearchedThreads(home));
  }, BROWSER_TIMEOUT);

  afterAll(() => home.cleanup());

  async function search(...args: string[]): Promise<string[]> {
    const listed = await home.uwf(["list", "--search", ...args, "--json"]);
    expect(listed.exitCode).toBe(0);
    return listResultSchema.parse(listed.json()).threads.map((thread) => thread.thread);
  }

  it("finds threads by prompt words (as word starts, any case), newest first", async () => {
    expect(await search("parser")).toEqual([docs, flaky]);
    expect(await search("FLAK pars")).toEqual([flaky]);
    expect(await search("arser")).toEqual([]);
  });

  it("finds threads by id prefix, workflow, role and field value", async () => {
    expect(await search(flaky.slice(0, 22))).toEqual([flaky]);
    expect(await search("linear")).toEqual([docs, flaky, ran]);
    expect(await search("doer")).toEqual([ran]);
    // The planner's `plan: write hello.txt` and the doer's `done: true`.
    expect(await search("hello true")).toEqual([ran]);
  });

  it("finds a fork by the prompt its chain starts with", async () => {
    const forked = await home.uwf(["fork", flaky, "--json"]);
    expect(forked.exitCode).toBe(0);
    const fork = forked.json<{ thread: string }>().thread;
    expect(await search("flaky")).toEqual([fork, flaky]);
    const deleted = await home.uwf(["delete", fork, "--yes"]);
    expect(deleted.exitCode).toBe(0);
    expect(await search("flaky")).toEqual([flaky]);
  });

  it("combines with --status and refuses filters it does not combine with", async () => {
    expect(await search("parser", "--status", "active")).toEqual([docs, flaky]);
    expect(await search("linear", "--status", "ended")).toEqual([ran]);
    const refused = await home.uwf(["list", "--search", "parser", "--running"]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain("--search combines with --status and --workflow, not --running");
  });
});

describeInBrowser("uwf ui: searching threads", () => {
  const home = createTempHome();
  let flaky: string;
  let docs: string;
  let ran: string;

  beforeAll(async () => {
    ({ ran, flaky, docs } = await startSearchedThreads(home));
  }, BROWSER_TIMEOUT);

  const { ui, inPage } = useUiInBrowser(home, { args: ["--read-only"] });

  it(
    "answers GET /api/threads?q= as uwf list --search",
    async () => {
      const response = await fetch(`${ui.origin}/api/threads?q=${encodeURIComponent("flaky pars")}`);
      expect(response.status).toBe(200);
      const result = listResultSchema.parse(await response.json()) as ListResult;
      expect(result.threads.map((thread) => thread.thread)).toEqual([flaky]);
      expect(result.total).toBe(1);
      const refused = await fetch(`${ui.origin}/api/threads?q=parser&running=1`);
      expect(refused.status).toBe(400);
    },
    BROWSER_TIMEOUT,
  );

  it(
    "filters the list as the user types, / focuses the search box, Escape clears it",
    async () => {
      await inPage(ui.url, "thread-search", async ({ page, problems }) => {
        await page.waitForSelector('[data-testid="thread-row"]');
        expect(await rowThreads(page)).toEqual([docs, flaky, ran]);
        expect(await page.$eval('[data-testid="thread-search"]', (input) => input.getAttribute("type"))).toBe("search");
        await page.keyboard.press("/");
        expect(await page.evaluate(`document.activeElement?.getAttribute("data-testid")`)).toBe("thread-search");
        await page.keyboard.type("parser");
        await page.waitForFunction(`new URLSearchParams(location.search).get("q") === "parser"`);
        await page.waitForFunction(`document.querySelectorAll('[data-testid="thread-row"]').length === 2`);
        expect(await rowThreads(page)).toEqual([docs, flaky]);
        await page.keyboard.type(" flaky");
        // "parser fl" already leaves one row: wait for the whole query to reach the address (typing is debounced).
        await page.waitForFunction(`new URLSearchParams(location.search).get("q") === "parser flaky"`);
        await page.waitForFunction(`document.querySelectorAll('[data-testid="thread-row"]').length === 1`);
        expect(await rowThreads(page)).toEqual([flaky]);
        if (process.env.UWF_UPDATE_SCREENSHOTS === "1") {
          const list = await page.$(".threads-page");
          await list?.screenshot({ path: SCREENSHOT as `${string}.png` });
        }
        // Reloaded, the search is kept in the address and the box.
        await page.reload();
        await page.waitForSelector('[data-testid="thread-row"]');
        expect(await rowThreads(page)).toEqual([flaky]);
        expect(
          await page.$eval('[data-testid="thread-search"]', (input) => (input as unknown as { value: string }).value),
        ).toBe("parser flaky");
        await page.focus('[data-testid="thread-search"]');
        await page.keyboard.press("Escape");
        await page.waitForFunction(`document.querySelectorAll('[data-testid="thread-row"]').length === 3`);
        expect(await page.evaluate("location.search")).toBe("");
        expect(problems).toEqual([]);
      });
    },
    BROWSER_TIMEOUT,
  );
});
