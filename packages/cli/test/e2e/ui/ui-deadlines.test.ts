/**
 * A suspension that waited past its role's `suspendTimeout` with no `$timeout` edge, on the Thread page of
 * a real `uwf ui` in a real headless Chromium: the thread is failed (`suspend-timeout`), and its page
 * offers the answer form (a late answer), not a step. Selectors as in ui-threads.test.ts.
 */
import { beforeAll, expect, it } from "bun:test";
import { join } from "node:path";
import { type StepResult, shownThreadSchema } from "@uwf/protocol";
import { createTempHome, FIXTURES } from "../../helpers/temp-home.ts";
import { BROWSER_TIMEOUT, describeInBrowser, useUiInBrowser, waitForText } from "../../helpers/ui-browser.ts";

/** `suspendTimeout: 2s`, no `$timeout` edge. */
const WAIT_FAIL = join(FIXTURES, "workflows/wait-fail.yaml");
const SCENARIO = join(FIXTURES, "workflows/wait.scenario.yaml");

describeInBrowser("uwf ui: a suspension whose wait ran out", () => {
  const home = createTempHome();
  let thread: string;

  beforeAll(async () => {
    home.writeConfig(`defaultAgent: "scripted:${SCENARIO}"\n`);
    const run = await home.uwf(["run", WAIT_FAIL, "-p", "Pick a colour", "--json"]);
    expect(run.exitCode).toBe(20);
    thread = run.json<StepResult>().thread;
    await Bun.sleep(2200);
    const worker = await home.uwf(["worker", "--once"]);
    expect(worker.exitCode).toBe(0);
  }, BROWSER_TIMEOUT);

  const { inPage } = useUiInBrowser(home, { signIn: true });

  it(
    "offers the answer form instead of a step, and a late answer ends the thread",
    async () => {
      const failed = shownThreadSchema.parse((await home.uwf(["show", thread, "--json"])).json());
      expect(failed).toMatchObject({ status: "failed", failure: { code: "suspend-timeout" } });
      await inPage(`/threads/${thread}`, "late-answer", async ({ page, problems }) => {
        await waitForText(page, '[data-testid="thread-status"]', "failed");
        await waitForText(page, '[data-testid="resume-question"]', "Which colour do you mean?");
        expect(await page.$('[data-testid="action-step"]')).toBeNull();
        await page.type('[data-testid="resume-answer"]', "Blue.");
        await page.click('[data-testid="resume-submit"]');
        await page.waitForSelector('[data-testid="resume-outcome"][data-outcome="ok"]', { timeout: 20_000 });
        await waitForText(page, '[data-testid="thread-status"]', "ended");
        const shown = shownThreadSchema.parse((await home.uwf(["show", thread, "--json"])).json());
        expect(shown).toMatchObject({ status: "ended", stepCount: 2 });
        expect(shown.failure).toBeUndefined();
        expect(problems).toEqual([]);
      });
    },
    BROWSER_TIMEOUT,
  );
});
