/**
 * The workbench (issue 46): start a thread from a form, choose the agent of Step, Run and Resume, the
 * schedules page, and actions on many threads — in a real headless Chromium against a real `uwf ui`
 * on a temp home (scripted agents, no network); `--read-only` shows none of their controls.
 *
 * Stable selectors (data-testid): New thread (`/threads/new`): `new-thread-page`, `new-thread-workflow`,
 * `new-thread-prompt`, `new-thread-inputs`, `answer-field-NAME`, `new-thread-cwd`, `new-thread-step-none|one|run`,
 * `new-thread-agent`, `new-thread-submit`, `new-thread-outcome`, `new-thread-read-only`. Thread actions:
 * `action-agent`. Schedules (`/schedules`): `schedule-table`, `schedule-row` (data-schedule, data-paused),
 * `schedule-pause`, `schedule-resume`, `schedule-trigger`, `trigger-queue`, `schedule-thread` (data-thread),
 * `schedule-tag` (threads list), `thread-scheduled-by` (thread page). Many at once: `select-thread`,
 * `select-all`, `bulk-bar`, `bulk-count`, `bulk-cancel|queue|delete`, `bulk-confirm` (a dialog),
 * `bulk-confirm-yes|no`, `bulk-result` (data-thread, data-outcome ok|error).
 *
 * `UWF_UPDATE_SCREENSHOTS=1` also saves each new page as docs/images/ui-new-thread.png,
 * ui-agent-picker.png, ui-schedules.png and ui-bulk.png.
 */
import { beforeAll, expect, it } from "bun:test";
import { join, resolve } from "node:path";
import { type LogResult, type ScheduleShowResult, type StepResult, threadStartNodeSchema } from "@uwf/protocol";
import type { Page } from "puppeteer-core";
import { createTempHome, LINEAR } from "../../helpers/temp-home.ts";
import { describeInBrowser, useUiInBrowser, waitForText } from "../../helpers/ui-browser.ts";
import { uwfExiting } from "../../helpers/uwf-exiting.ts";
import { ASK, setUpWorkbenchHome } from "../../helpers/workbench-home.ts";

const TIMEOUT = 90_000;
const IMAGES = resolve(import.meta.dir, "../../../../../docs/images");

/** The one problem a page refused an action reports: Chromium logs each refusal's 4xx as a resource that failed. */
function expectOnlyRefusals(problems: readonly string[], count: number): void {
  expect(problems).toHaveLength(count);
  for (const problem of problems) {
    expect(problem).toMatch(/^console: Failed to load resource: the server responded with a status of 4\d\d /);
  }
}

async function saveScreenshot(page: Page, name: string): Promise<void> {
  if (process.env.UWF_UPDATE_SCREENSHOTS !== "1") return;
  await page.screenshot({ path: join(IMAGES, name) as `${string}.png`, fullPage: true });
}

/** The `data-thread` of every row of the thread table, in order. */
async function rowThreads(page: Page): Promise<string[]> {
  return page.$$eval('[data-testid="thread-row"]', (rows) => rows.map((row) => row.getAttribute("data-thread") ?? ""));
}

describeInBrowser("uwf ui: the workbench", () => {
  const home = createTempHome();

  /** `uwf ARGS --json`'s result; exit 20 (suspended) is a result too. */
  async function uwfJson<Value>(args: string[]): Promise<Value> {
    return (await uwfExiting(home, [...args, "--json"], [0, 20])).json<Value>();
  }

  beforeAll(async () => {
    await setUpWorkbenchHome(home);
  }, TIMEOUT);

  const { ui, inPage, inOtherUi } = useUiInBrowser(home, { signIn: true, timeoutMs: TIMEOUT });

  it(
    "starts a thread from the form: the workflow's inputs as fields, a refusal in place, then a run with the agent picked",
    async () => {
      const before = await home.threadCount();
      await inPage("/", "new-thread", async ({ page, problems }) => {
        await page.click(".new-thread-link");
        await page.waitForSelector('[data-testid="new-thread-page"]');
        // The list of workflows arrives after the page: wait for it before reading it.
        await page.waitForSelector('[data-testid="new-thread-workflow"] option[value="brief"]');
        const workflows = await page.$$eval('[data-testid="new-thread-workflow"] option', (options) =>
          options.map((option) => (option as unknown as { value: string }).value),
        );
        expect(workflows).toEqual(expect.arrayContaining(["brief", "linear", "ask"]));
        await page.select('[data-testid="new-thread-workflow"]', "brief");
        // One field per property of the inputs schema, by type (in the stored schema's order: keys sorted); the required ones marked.
        await page.waitForSelector('[data-testid="answer-field-tone"]');
        expect(
          await page.$$eval('[data-testid^="answer-field-"]', (fields) =>
            fields.map((field) => `${field.tagName.toLowerCase()}:${field.getAttribute("type") ?? ""}`),
          ),
        ).toEqual(["input:number", "select:", "input:text", "input:checkbox"]);
        await waitForText(page, '[data-testid="new-thread-inputs"]', "topic (required)");
        await waitForText(page, '[data-testid="new-thread-inputs"]', "count (required)");
        const toneOptions = await page.$$eval('[data-testid="answer-field-tone"] option', (options) =>
          options.map((option) => option.textContent),
        );
        expect(toneOptions).toEqual(["—", "calm", "bold"]);

        await page.type('[data-testid="new-thread-prompt"]', "Write the brief");
        await page.type('[data-testid="answer-field-topic"]', "release notes");
        // Not an integer: the server refuses it as `uwf start --input` does, and nothing is started.
        await page.type('[data-testid="answer-field-count"]', "1.5");
        await page.click('[data-testid="new-thread-submit"]');
        await page.waitForSelector('[data-testid="new-thread-outcome"][data-outcome="error"]');
        await waitForText(page, '[data-testid="new-thread-outcome"]', "invalid-inputs");
        await waitForText(page, '[data-testid="new-thread-outcome"]', "count");
        expect(await home.threadCount()).toBe(before);

        await page.click('[data-testid="answer-field-count"]');
        await page.keyboard.down("Control");
        await page.keyboard.press("KeyA");
        await page.keyboard.up("Control");
        await page.keyboard.press("Backspace");
        await page.type('[data-testid="answer-field-count"]', "3");
        await page.click('[data-testid="answer-field-urgent"]');
        await page.select('[data-testid="answer-field-tone"]', "1");
        // The agent goes with steps only: picked once "run" is chosen.
        expect(await page.$eval('[data-testid="new-thread-agent"]', (select) => select.hasAttribute("disabled"))).toBe(
          true,
        );
        await page.click('[data-testid="new-thread-step-run"]');
        await page.select('[data-testid="new-thread-agent"]', "linear");
        await saveScreenshot(page, "ui-new-thread.png");
        await page.click('[data-testid="new-thread-submit"]');
        await page.waitForSelector('[data-testid="thread-page"]', { timeout: 30_000 });
        await waitForText(page, '[data-testid="thread-status"]', "ended");
        const thread = new URL(page.url()).pathname.split("/")[2] as string;
        const shown = await home.showThread(thread);
        expect(shown).toMatchObject({ workflow: "brief", status: "ended", stepCount: 2 });
        const start = threadStartNodeSchema.parse((await uwfJson<{ node: unknown }>(["show", shown.start])).node);
        expect(start).toMatchObject({
          prompt: "Write the brief",
          inputs: { topic: "release notes", count: 3, urgent: true, tone: "bold" },
        });
        const log = await uwfJson<LogResult>(["log", thread]);
        expect(log.steps.map((step) => step.agent)).toEqual(["linear", "linear"]);
        expect(await home.threadCount()).toBe(before + 1);

        // A workflow's graph links here with its version picked (by hash, shown as its registered name).
        await page.goto(`${ui.origin}/workflows/brief`, { waitUntil: "networkidle2" });
        await page.waitForSelector('a[href^="/threads/new?workflow="]');
        await page.click('a[href^="/threads/new?workflow="]');
        await page.waitForSelector('[data-testid="new-thread-workflow"] option[value="brief"]');
        await page.waitForFunction(`document.querySelector('[data-testid="new-thread-workflow"]').value === "brief"`);
        await page.waitForSelector('[data-testid="answer-field-topic"]');
        expectOnlyRefusals(problems, 1);
      });
    },
    TIMEOUT,
  );

  it(
    "steps and resumes with the agent picked from config.yaml's aliases",
    async () => {
      const fresh = await home.startThread(LINEAR, "Write picked.txt");
      const suspended = (await uwfJson<StepResult>(["run", ASK, "-p", "Pick a colour", "--agent", "asker"])).thread;
      await inPage(`/threads/${fresh}`, "agent-picker", async ({ page, problems }) => {
        await page.waitForSelector('[data-testid="action-agent"] option[value="linear"]');
        const options = await page.$$eval('[data-testid="action-agent"] option', (all) =>
          all.map((option) => option.textContent),
        );
        expect(options).toEqual(["config.yaml's choice", "asker (scripted)", "keyed (command)", "linear (scripted)"]);
        await page.select('[data-testid="action-agent"]', "linear");
        await page.click('[data-testid="action-step"]');
        await page.waitForSelector('[data-testid="action-step-outcome"][data-outcome="ok"]', { timeout: 20_000 });
        expect((await uwfJson<LogResult>(["log", fresh])).steps.map((step) => step.agent)).toEqual(["linear"]);

        // The ask workflow's default agent (linear) would not fit: the resume runs with the one picked.
        await page.goto(`${ui.origin}/threads/${suspended}`, { waitUntil: "networkidle2" });
        await waitForText(page, '[data-testid="resume-question"]', "Which colour do you mean?");
        await page.waitForSelector('[data-testid="action-agent"] option[value="asker"]');
        await page.select('[data-testid="action-agent"]', "asker");
        await page.type('[data-testid="resume-answer"]', "The colour of the sky.");
        const panel = await page.$('[data-testid="thread-actions"]');
        if (process.env.UWF_UPDATE_SCREENSHOTS === "1") {
          await panel?.screenshot({ path: join(IMAGES, "ui-agent-picker.png") as `${string}.png` });
        }
        await page.click('[data-testid="resume-submit"]');
        await page.waitForSelector('[data-testid="resume-outcome"][data-outcome="ok"]', { timeout: 20_000 });
        await waitForText(page, '[data-testid="thread-status"]', "ended");
        const log = await uwfJson<LogResult>(["log", suspended]);
        expect(log.steps.map((step) => step.agent)).toEqual(["asker", "asker"]);
        expect(problems).toEqual([]);
      });
    },
    TIMEOUT,
  );

  it(
    "lists the schedules, pauses, resumes and triggers one, and tags the threads a schedule started",
    async () => {
      for (const args of [
        ["schedule", "add", "hourly", "linear", "--cron", "0 * * * *", "-p", "Hourly check"],
        ["schedule", "add", "weekly", "brief", "--cron", "0 9 * * 1", "--tz", "Europe/Berlin", "-p", "Weekly"].concat([
          "--input",
          "topic=news",
          "--input",
          "count=2",
        ]),
        ["schedule", "pause", "weekly"],
      ]) {
        const ran = await home.uwf(args);
        if (ran.exitCode !== 0) throw new Error(ran.stderr);
      }
      // A fire before the page opens: its thread ran here, with the default agent.
      const fired = await uwfJson<{ fired: Array<{ thread: string }> }>(["schedule", "trigger", "hourly"]);
      const first = fired.fired[0]?.thread as string;
      await inPage("/schedules", "schedules", async ({ page, problems }) => {
        await page.waitForSelector('[data-testid="schedule-row"][data-schedule="weekly"]');
        const row = (name: string) => `[data-testid="schedule-row"][data-schedule="${name}"]`;
        await waitForText(page, `${row("hourly")} [data-testid="schedule-cron"]`, "0 * * * *");
        await waitForText(page, row("weekly"), "Europe/Berlin");
        await waitForText(page, `${row("weekly")} [data-testid="schedule-next"]`, "paused");
        await page.waitForSelector(`${row("hourly")} [data-testid="schedule-thread"][data-thread="${first}"]`);

        await page.click(`${row("hourly")} [data-testid="schedule-pause"]`);
        await page.waitForSelector(`${row("hourly")}[data-paused="true"]`);
        expect((await uwfJson<ScheduleShowResult>(["schedule", "show", "hourly"])).paused).toBe(true);
        await page.click(`${row("weekly")} [data-testid="schedule-resume"]`);
        await page.waitForSelector(`${row("weekly")}[data-paused="false"]`);
        expect((await uwfJson<ScheduleShowResult>(["schedule", "show", "weekly"])).paused).toBe(false);
        await page.click(`${row("hourly")} [data-testid="schedule-resume"]`);
        await page.waitForSelector(`${row("hourly")}[data-paused="false"]`);

        // Trigger, queued for workers: the new thread joins the row's last threads.
        await page.click('[data-testid="trigger-queue"]');
        await page.click(`${row("hourly")} [data-testid="schedule-trigger"]`);
        await page.waitForSelector(`${row("hourly")} [data-testid="schedule-trigger-outcome"][data-outcome="ok"]`);
        await page.waitForFunction(
          `document.querySelectorAll('${row("hourly")} [data-testid="schedule-thread"]').length === 2`,
        );
        const shown = await uwfJson<ScheduleShowResult>(["schedule", "show", "hourly"]);
        expect(shown.threadCount).toBe(2);
        const second = shown.threads[0]?.id as string;
        expect((await home.showThread(second)).queued).toBe(true);
        await saveScreenshot(page, "ui-schedules.png");

        await page.click(`${row("hourly")} [data-testid="schedule-thread"][data-thread="${first}"] a`);
        await page.waitForSelector('[data-testid="thread-scheduled-by"]');
        await waitForText(page, '[data-testid="thread-scheduled-by"]', "hourly");
        await page.goto(`${ui.origin}/`, { waitUntil: "networkidle2" });
        await page.waitForSelector(`[data-testid="thread-row"][data-thread="${first}"] [data-testid="schedule-tag"]`);
        await waitForText(page, `[data-thread="${first}"] [data-testid="schedule-tag"]`, "hourly");
        expect(problems).toEqual([]);
      });
    },
    TIMEOUT,
  );

  it(
    "cancels, queues and deletes many threads after a confirmation, each thread's outcome shown",
    async () => {
      const ended = (await uwfJson<StepResult>(["run", LINEAR, "-p", "Write ended.txt"])).thread;
      const active = await home.startThread(LINEAR, "Write active.txt");
      const toQueue = await home.startThread(LINEAR, "Write queued.txt");
      await inPage("/?workflow=linear", "bulk", async ({ page, problems }) => {
        const tick = async (thread: string) =>
          page.click(`[data-testid="thread-row"][data-thread="${thread}"] [data-testid="select-thread"]`);
        await page.waitForSelector(`[data-testid="thread-row"][data-thread="${ended}"]`);
        await tick(toQueue);
        await waitForText(page, '[data-testid="bulk-count"]', "1 selected");
        await page.click('[data-testid="bulk-queue"]');
        await page.waitForSelector('[data-testid="bulk-confirm"][open]');
        await waitForText(page, '[data-testid="bulk-confirm"]', toQueue);
        await page.click('[data-testid="bulk-confirm-yes"]');
        await page.waitForSelector(`[data-testid="bulk-result"][data-thread="${toQueue}"][data-outcome="ok"]`);
        expect((await home.showThread(toQueue)).queued).toBe(true);

        // No at the confirmation: nothing is done.
        await tick(ended);
        await tick(active);
        await waitForText(page, '[data-testid="bulk-count"]', "2 selected");
        await page.click('[data-testid="bulk-cancel"]');
        await page.waitForSelector('[data-testid="bulk-confirm"][open]');
        await waitForText(page, '[data-testid="bulk-confirm"]', "Cancel 2 threads?");
        await saveScreenshot(page, "ui-bulk.png");
        await page.click('[data-testid="bulk-confirm-no"]');
        await page.waitForSelector('[data-testid="bulk-confirm"]:not([open])');
        expect((await home.showThread(active)).status).toBe("active");

        // Yes: the active one is cancelled; the ended one is refused, and says why beside its id.
        await page.click('[data-testid="bulk-cancel"]');
        await page.waitForSelector('[data-testid="bulk-confirm"][open]');
        await page.click('[data-testid="bulk-confirm-yes"]');
        await page.waitForSelector(`[data-testid="bulk-result"][data-thread="${active}"][data-outcome="ok"]`);
        await page.waitForSelector(`[data-testid="bulk-result"][data-thread="${ended}"][data-outcome="error"]`);
        const refused = await page.$eval(
          `[data-testid="bulk-result"][data-thread="${ended}"]`,
          (element) => element.textContent ?? "",
        );
        expect(refused).toMatch(/thread-(already-)?ended/);
        expect((await home.showThread(active)).status).toBe("cancelled");
        expect((await home.showThread(ended)).status).toBe("ended");
        // The refused one stays ticked; the done one is unticked.
        await waitForText(page, '[data-testid="bulk-count"]', "1 selected");

        // Delete both (select all on the page after clearing): the rows go, the store has them no more.
        await page.click('[data-testid="bulk-clear"]');
        await tick(ended);
        await tick(active);
        await page.click('[data-testid="bulk-delete"]');
        await page.waitForSelector('[data-testid="bulk-confirm"][open]');
        await page.click('[data-testid="bulk-confirm-yes"]');
        await page.waitForSelector(`[data-testid="bulk-result"][data-thread="${active}"][data-outcome="ok"]`);
        await page.waitForSelector(`[data-testid="bulk-result"][data-thread="${ended}"][data-outcome="ok"]`);
        await page.waitForFunction(
          `!document.querySelector('[data-testid="thread-row"][data-thread="${ended}"]') && !document.querySelector('[data-testid="thread-row"][data-thread="${active}"]')`,
        );
        expect(await rowThreads(page)).toContain(toQueue);
        expect((await home.uwf(["show", ended])).exitCode).toBe(1);
        expect((await home.uwf(["show", active])).exitCode).toBe(1);
        expectOnlyRefusals(problems, 1);
      });
    },
    TIMEOUT,
  );

  it(
    "offers none of these actions under --read-only, and shows a schedule's markup as text",
    async () => {
      const markup = `<img src=x onerror="window.__uwfXss = 1">`;
      const added = await home.uwf(["schedule", "add", "marked", "linear", "--cron", "0 3 * * *", "-p", markup]);
      if (added.exitCode !== 0) throw new Error(added.stderr);
      await home.startThread(LINEAR, "Write shown.txt");
      await inOtherUi(["--read-only"], "/", "workbench-read-only", async ({ page, problems }, readOnly) => {
        await page.waitForSelector('[data-testid="thread-row"]');
        expect(await page.$('[data-testid="select-thread"]')).toBeNull();
        expect(await page.$(".new-thread-link")).toBeNull();
        await page.goto(`${readOnly.origin}/workflows/linear`, { waitUntil: "networkidle2" });
        await page.waitForSelector(".graph-page");
        expect(await page.$('a[href^="/threads/new"]')).toBeNull();
        await page.goto(`${readOnly.origin}/threads/new`, { waitUntil: "networkidle2" });
        await page.waitForSelector('[data-testid="new-thread-read-only"]');
        expect(await page.$('[data-testid="new-thread-submit"]')).toBeNull();
        await page.goto(`${readOnly.origin}/schedules`, { waitUntil: "networkidle2" });
        await page.waitForSelector('[data-testid="schedule-row"]');
        expect(await page.$('[data-testid="schedule-pause"]')).toBeNull();
        expect(await page.$('[data-testid="schedule-trigger"]')).toBeNull();
        expect(await page.$('[data-testid="trigger-options"]')).toBeNull();
        await waitForText(page, '[data-testid="schedule-row"][data-schedule="marked"]', markup);
        expect(await page.evaluate("window.__uwfXss")).toBeUndefined();
        expect(await page.$('[data-testid="schedule-row"] img')).toBeNull();
        expect(problems).toEqual([]);
      });
    },
    TIMEOUT,
  );
});
