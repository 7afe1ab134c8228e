/**
 * The Threads, Thread and Step pages and their actions, in a real headless Chromium against a real
 * `uwf ui` on a temp home (scripted agents, no network).
 *
 * Stable selectors (data-testid unless said otherwise), kept by the pages for these tests:
 * - Threads (`/`): `thread-table`, `thread-row` (data-thread, data-status), `waiting-group`,
 *   `waiting-thread` (data-thread), `thread-filters`, `filter-status` (a select), `filter-workflow`,
 *   `filter-outcome`, `filter-forksOf`, `filter-recursive`, `filter-running`, `pager`, `pager-range`,
 *   `pager-previous`, `pager-next`, `threads-empty`.
 * - Thread (`/threads/:id`): `thread-page` (data-thread), `thread-id`, `thread-status`, `thread-reason`,
 *   `thread-outcome`, `thread-failure`, `thread-forked-from`, `thread-spend`, `thread-start`,
 *   `thread-prompt`, `timeline`, `timeline-empty`, `step-row` (data-step, data-address), `running-step`,
 *   `failed-attempt`, the step's link `a[href^="/steps/"]` inside a step row.
 * - Actions: `thread-actions`, `action-step`, `action-run`, `action-queue`, `action-cancel`,
 *   `cancel-confirm`, `action-cancel-yes`, `action-cancel-no`, `action-*-outcome` (data-outcome ok|error);
 *   `resume-form`, `resume-question`, `resume-answer`, `resume-all`, `resume-submit`, `resume-outcome`;
 *   `fork-here` (in each step row), `fork-panel`, `fork-replace`, `fork-reply`, `fork-submit`,
 *   `fork-close`, `fork-outcome`.
 * - Step (`/steps/:address`): `step-page` (data-address), `step-output`, `step-body`, `step-prompt`,
 *   `step-run`, `step-attempts`, `step-stderr`, `step-thread-link`, `run-reply` (an agent run's raw reply).
 *
 * "queues an active thread for workers" needs the server's `POST /api/threads/:id/queue`.
 * Three tests need the store's live feed (`/api/events`): "shows a step recorded by a separate uwf step
 * process without reload", "shows the step another process is running, then the step it recorded" and
 * "adds a thread started by another process to the open list without reload".
 */
import { beforeAll, expect, it } from "bun:test";
import { join } from "node:path";
import { type ListResult, listResultSchema, type StepResult, shownThreadSchema } from "@uwf/protocol";
import type { Page } from "puppeteer-core";
import { createTempHome, FIXTURES, fixtureAgentsConfig, LINEAR, SCRIPTED } from "../../helpers/temp-home.ts";
import {
  BROWSER_TIMEOUT,
  describeInBrowser,
  rowThreads,
  useUiInBrowser,
  waitForText,
} from "../../helpers/ui-browser.ts";
import { uwfExiting } from "../../helpers/uwf-exiting.ts";
import { ASK } from "../../helpers/workbench-home.ts";

const ASK_SCENARIO = join(FIXTURES, "workflows/ask.scenario.yaml");

/** The `data-thread` of every row of the thread table, in order. */

/**
 * The one problem a page that was refused an action reports: Chromium logs the refusal's HTTP status
 * (4xx) as a resource that failed to load. Anything else is a problem of the page.
 */
function expectOnlyTheRefusal(problems: readonly string[]): void {
  expect(problems).toHaveLength(1);
  expect(problems[0]).toMatch(/^console: Failed to load resource: the server responded with a status of 4\d\d /);
}

/** Replaces a textarea's text as a user would: select all, then type. */
async function replaceText(page: Page, selector: string, text: string): Promise<void> {
  await page.click(selector);
  await page.keyboard.down("Control");
  await page.keyboard.press("KeyA");
  await page.keyboard.up("Control");
  await page.keyboard.press("Backspace");
  await page.type(selector, text);
}

describeInBrowser("uwf ui: threads, a thread, a step, actions", () => {
  const home = createTempHome();
  /** A linear thread run to its end (2 steps). */
  let ended: string;
  /** An ask thread suspended by its first step ("Which colour do you mean?"). */
  let suspended: string;
  /** A linear thread started, not stepped: the one stepped by another process, then cancelled. */
  let fresh: string;

  /** `uwf ARGS --json`'s result; exit 20 (suspended) is a result too. */
  async function uwfJson<Value>(args: string[]): Promise<Value> {
    return (await uwfExiting(home, [...args, "--json"], [0, 20])).json<Value>();
  }

  beforeAll(async () => {
    // Steps the UI asks for run with the default agent: the ask workflow's scenario.
    // slow-valid: an agent that waits for the test's go (see the running step).
    home.writeConfig(
      [`defaultAgent: "scripted:${ASK_SCENARIO}"`, ...fixtureAgentsConfig(["slow-valid"]), ""].join("\n"),
    );
    ended = (await uwfJson<StepResult>(["run", LINEAR, "-p", "Write hello.txt", "--agent", SCRIPTED])).thread;
    suspended = (await uwfJson<StepResult>(["run", ASK, "-p", "Pick a colour"])).thread;
    fresh = await home.startThread(LINEAR, "Write fresh.txt");
  }, BROWSER_TIMEOUT);

  const { ui, inPage, inOtherUi } = useUiInBrowser(home, { signIn: true });

  it(
    "lists the threads newest first, the suspended one waiting for an answer, filters kept in the URL",
    async () => {
      await inPage(ui.url, "threads-list", async ({ page, problems }) => {
        await page.waitForSelector('[data-testid="thread-row"]');
        expect(await rowThreads(page)).toEqual([fresh, suspended, ended]);
        await waitForText(page, '[data-testid="pager-range"]', "1–3 of 3");
        await waitForText(page, '[data-testid="waiting-group"]', suspended);
        await waitForText(page, '[data-testid="waiting-group"]', "Which colour do you mean?");

        await page.select('[data-testid="filter-status"]', "ended");
        await page.waitForFunction(`location.search === "?status=ended"`);
        await page.waitForFunction(`document.querySelectorAll('[data-testid="thread-row"]').length === 1`);
        expect(await rowThreads(page)).toEqual([ended]);

        // The filter is in the URL: a reload shows the same view.
        await page.reload({ waitUntil: "networkidle2" });
        await page.waitForSelector('[data-testid="thread-row"]');
        expect(await rowThreads(page)).toEqual([ended]);
        expect(await page.$eval('[data-testid="filter-status"]', (select) => (select as { value: string }).value)).toBe(
          "ended",
        );

        await page.click(`[data-thread="${ended}"] a`);
        await page.waitForSelector('[data-testid="thread-page"]');
        expect(new URL(page.url()).pathname).toBe(`/threads/${ended}`);
        expect(problems).toEqual([]);
      });
    },
    BROWSER_TIMEOUT,
  );

  it(
    "opens a thread's timeline and outcome, then a step's prompt, reply and agent run",
    async () => {
      await inPage(`/threads/${ended}`, "thread-and-step", async ({ page, problems }) => {
        await page.waitForFunction(`document.querySelectorAll('[data-testid="step-row"]').length === 2`);
        await waitForText(page, '[data-testid="thread-status"]', "ended");
        await waitForText(page, '[data-testid="thread-outcome"]', "doer");
        await waitForText(page, '[data-testid="thread-prompt"]', "Write hello.txt");
        await waitForText(page, '[data-testid="step-row"][data-step="1"]', "planner");
        await waitForText(page, '[data-testid="step-row"][data-step="2"]', "doer");

        await page.click('[data-testid="step-row"][data-step="1"] a[href^="/steps/"]');
        await page.waitForSelector('[data-testid="step-page"]');
        await waitForText(page, '[data-testid="step-prompt"] h1', "Your role: planner");
        await waitForText(page, '[data-testid="step-prompt"]', "Write hello.txt");
        await waitForText(page, '[data-testid="step-output"]', "write hello.txt");
        await waitForText(page, '[data-testid="step-body"]', "I will write hello.txt.");
        await waitForText(page, '[data-testid="step-run"]', "scripted");
        await waitForText(page, '[data-testid="step-attempts"]', "1");
        await waitForText(page, '[data-testid="step-thread-link"]', ended);
        expect(problems).toEqual([]);
      });
    },
    BROWSER_TIMEOUT,
  );

  it(
    "resumes a suspended thread with the answer typed in its form",
    async () => {
      await inPage(`/threads/${suspended}`, "resume", async ({ page, problems }) => {
        await waitForText(page, '[data-testid="resume-question"]', "Which colour do you mean?");
        await page.type('[data-testid="resume-answer"]', "The colour of the sky.");
        await page.click('[data-testid="resume-submit"]');
        await page.waitForSelector('[data-testid="resume-outcome"][data-outcome="ok"]', { timeout: 20_000 });
        // The page refetches after its own action: the thread ended with the answered step.
        await waitForText(page, '[data-testid="thread-status"]', "ended");
        await page.waitForFunction(`document.querySelectorAll('[data-testid="step-row"]').length === 2`);
        const shown = shownThreadSchema.parse(await uwfJson(["show", suspended]));
        expect(shown.status).toBe("ended");
        expect(shown.stepCount).toBe(2);
        expect(problems).toEqual([]);
      });
    },
    BROWSER_TIMEOUT,
  );

  it(
    "forks at a step with an edited reply: an invalid one is refused in place, a valid one opens the fork",
    async () => {
      await inPage(`/threads/${ended}`, "fork", async ({ page, problems }) => {
        await page.waitForSelector('[data-testid="step-row"][data-step="1"] [data-testid="fork-here"]');
        await page.click('[data-testid="step-row"][data-step="1"] [data-testid="fork-here"]');
        await page.click('[data-testid="fork-replace"]');
        await page.waitForSelector('[data-testid="fork-reply"]');
        // Prefilled with the step's current reply.
        await page.waitForFunction(
          `(document.querySelector('[data-testid="fork-reply"]')?.value ?? "").includes("plan: write hello.txt")`,
        );

        await replaceText(page, '[data-testid="fork-reply"]', "---\nnot_a_field: 1\n---\n\nNo plan.\n");
        await page.click('[data-testid="fork-submit"]');
        await page.waitForSelector('[data-testid="fork-outcome"][data-outcome="error"]', { timeout: 20_000 });
        await waitForText(page, '[data-testid="fork-outcome"]', "invalid-reply");
        await waitForText(page, '[data-testid="fork-outcome"]', "plan");
        expect(new URL(page.url()).pathname).toBe(`/threads/${ended}`);

        await replaceText(
          page,
          '[data-testid="fork-reply"]',
          "---\nplan: write goodbye.txt\n---\n\nI will write goodbye.txt.\n",
        );
        await page.click('[data-testid="fork-submit"]');
        await page.waitForFunction(`location.pathname !== ${JSON.stringify(`/threads/${ended}`)}`, { timeout: 20_000 });
        const fork = new URL(page.url()).pathname.replace("/threads/", "");
        await page.waitForSelector(`[data-testid="thread-page"][data-thread="${fork}"]`);
        await waitForText(page, '[data-testid="thread-forked-from"]', ended);

        const forks = listResultSchema.parse(await uwfJson<ListResult>(["list", "--forks-of", ended]));
        expect(forks.threads.map((thread) => thread.thread)).toEqual([fork]);
        const shown = shownThreadSchema.parse(await uwfJson(["show", fork]));
        expect(shown.forkedFrom).toMatchObject({ thread: ended, step: 1, replaced: true });
        const head = await uwfJson<{ output: Record<string, unknown>; body: string }>(["show", shown.head]);
        expect(head.output).toEqual({ plan: "write goodbye.txt" });
        expect(head.body).toContain("I will write goodbye.txt.");

        // The family view, opened from the fork's page, lists it under the step it was forked at, marked as a replaced reply.
        await page.click('a[href$="/family"]');
        await page.waitForSelector(`.family-member[data-thread="${fork}"]`);
        await waitForText(page, `.family-member[data-thread="${fork}"]`, "forked at step 1");
        await waitForText(page, `.family-member[data-thread="${fork}"]`, "replaced reply");
        expectOnlyTheRefusal(problems);
      });
    },
    BROWSER_TIMEOUT,
  );

  // Needs the live feed (`/api/events`): the step is recorded by another process, the page is not reloaded.
  it(
    "shows a step recorded by a separate uwf step process without reload",
    async () => {
      await inPage(`/threads/${fresh}`, "live-step", async ({ page, problems }) => {
        await page.waitForSelector('[data-testid="timeline-empty"]');
        await page.evaluate("window.__notReloaded = true");
        const stepped = await home.uwf(["step", fresh, "--agent", SCRIPTED]);
        expect(stepped.exitCode).toBe(0);
        await waitForText(page, '[data-testid="step-row"][data-step="1"]', "planner", 5_000);
        await waitForText(page, '[data-testid="thread-page"] .status-badge', "active");
        expect(await page.evaluate("window.__notReloaded === true")).toBe(true);
        expect(problems).toEqual([]);
      });
    },
    BROWSER_TIMEOUT,
  );

  // Needs the live feed (`/api/events`): the step another process runs shows as running, then as recorded.
  it(
    "shows the step another process is running, then the step it recorded",
    async () => {
      const thread = await home.startThread(LINEAR, "Write slowly.txt");
      const pidFile = join(home.work, "slow-agent.pid");
      await inPage(`/threads/${thread}`, "live-running", async ({ page, problems }) => {
        await page.waitForSelector('[data-testid="timeline-empty"]');
        const stepper = home.spawn(["step", thread, "--agent", "slow-valid"], { env: { PID_FILE: pidFile } });
        try {
          await page.waitForSelector('[data-testid="running-step"][data-step="1"]', { timeout: 10_000 });
          await waitForText(page, '[data-testid="running-step"]', "planner");
          await waitForText(page, '[data-testid="thread-page"] .status-badge', "running");
        } finally {
          await Bun.write(`${pidFile}.release`, "");
        }
        expect(await stepper.exited).toBe(0);
        await waitForText(page, '[data-testid="step-row"][data-step="1"]', "slow-valid", 5_000);
        await page.waitForFunction(`document.querySelector('[data-testid="running-step"]') === null`);
        expect(problems).toEqual([]);
      });
    },
    BROWSER_TIMEOUT,
  );

  // Needs the live feed (`/api/events`): a thread started by another process appears in the list.
  it(
    "adds a thread started by another process to the open list without reload",
    async () => {
      await inPage(ui.url, "live-list", async ({ page, problems }) => {
        await page.waitForSelector('[data-testid="thread-row"]');
        await page.evaluate("window.__notReloaded = true");
        const started = await home.startThread(LINEAR, "Write live.txt");
        await page.waitForSelector(`[data-testid="thread-row"][data-thread="${started}"]`, { timeout: 5_000 });
        expect((await rowThreads(page))[0]).toBe(started);
        expect(await page.evaluate("window.__notReloaded === true")).toBe(true);
        expect(problems).toEqual([]);
      });
    },
    BROWSER_TIMEOUT,
  );

  it(
    "cancels a thread only once the user confirms",
    async () => {
      await inPage(`/threads/${fresh}`, "cancel", async ({ page, problems }) => {
        await page.waitForSelector('[data-testid="action-cancel"]');
        await page.click('[data-testid="action-cancel"]');
        await page.waitForSelector('[data-testid="cancel-confirm"]');
        await page.click('[data-testid="action-cancel-no"]');
        await page.waitForSelector('[data-testid="action-cancel"]');
        expect(shownThreadSchema.parse(await uwfJson(["show", fresh])).status).toBe("active");

        await page.click('[data-testid="action-cancel"]');
        await page.click('[data-testid="action-cancel-yes"]');
        await page.waitForSelector('[data-testid="action-cancel-outcome"][data-outcome="ok"]', { timeout: 20_000 });
        await waitForText(page, '[data-testid="thread-status"]', "cancelled");
        expect(shownThreadSchema.parse(await uwfJson(["show", fresh])).status).toBe("cancelled");
        expect(problems).toEqual([]);
      });
    },
    BROWSER_TIMEOUT,
  );

  it(
    "shows a refused action's error code and message in place",
    async () => {
      // The default agent answers for the ask workflow only: stepping a linear thread with it fails.
      const other = await home.startThread(LINEAR, "Write other.txt");
      await inPage(`/threads/${other}`, "step-error", async ({ page, problems }) => {
        await page.waitForSelector('[data-testid="action-step"]');
        await page.click('[data-testid="action-step"]');
        await page.waitForSelector('[data-testid="action-step-outcome"][data-outcome="error"]', { timeout: 20_000 });
        const shown = shownThreadSchema.parse(await uwfJson(["show", other]));
        expect(shown.status).toBe("failed");
        const code = shown.failure?.code as string;
        await waitForText(page, '[data-testid="action-step-outcome"] .error-code', code);
        // The page refetched: the failure and the failed attempt are shown.
        await waitForText(page, '[data-testid="thread-failure"]', code);
        await page.waitForSelector('[data-testid="failed-attempt"]');
        // The failed attempt links to the agent run it left: its outcome and the prompt it was sent.
        await page.click('[data-testid="failed-attempt"] a[href^="/steps/"]');
        await waitForText(page, '[data-testid="step-run"]', "failed");
        await waitForText(page, '[data-testid="step-prompt"] h1', "Your role: planner");
        expectOnlyTheRefusal(problems);
      });
    },
    BROWSER_TIMEOUT,
  );

  // Needs the server's queue endpoint (`POST /api/threads/:id/queue`, `uwf queue`).
  it(
    "queues an active thread for workers",
    async () => {
      const queued = await home.startThread(LINEAR, "Write queued.txt");
      await inPage(`/threads/${queued}`, "queue", async ({ page, problems }) => {
        await page.waitForSelector('[data-testid="action-queue"]:not([disabled])');
        await page.click('[data-testid="action-queue"]');
        await page.waitForSelector('[data-testid="action-queue-outcome"][data-outcome="ok"]', { timeout: 20_000 });
        await waitForText(page, '[data-testid="thread-status"]', "queued");
        expect(shownThreadSchema.parse(await uwfJson(["show", queued])).queued).toBe(true);
        expect(problems).toEqual([]);
      });
    },
    BROWSER_TIMEOUT,
  );

  it(
    "offers no actions under --read-only",
    async () => {
      const active = await home.startThread(LINEAR, "Write read-only.txt");
      await inOtherUi(["--read-only"], `/threads/${active}`, "read-only", async ({ page, problems }, readOnly) => {
        await waitForText(page, "header .session", "read-only");
        await page.waitForSelector('[data-testid="timeline-empty"]');
        expect(await page.$('[data-testid="thread-actions"]')).toBeNull();
        await page.goto(`${readOnly.origin}/threads/${ended}`, { waitUntil: "networkidle2" });
        await page.waitForFunction(`document.querySelectorAll('[data-testid="step-row"]').length === 2`);
        expect(await page.$('[data-testid="fork-here"]')).toBeNull();
        expect(problems).toEqual([]);
      });
    },
    BROWSER_TIMEOUT,
  );
});
