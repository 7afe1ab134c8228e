/**
 * Small things the pages got wrong, in a real headless Chromium against a real `uwf ui`: an agent's argv
 * glued into one word, the graph's step list numbered twice, action messages that outlived the state they
 * described, Step and Run offered while another process steps the thread, two date formats, and the
 * workflow versions of stored threads missing from /workflows.
 */
import { beforeAll, expect, it } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "@uwf/cas/test";
import { evalResultSchema, workflowListResultSchema } from "@uwf/protocol";
import { failedGateReport } from "../../helpers/failed-gate-report.ts";
import { createTempHome, fixtureAgent, LINEAR } from "../../helpers/temp-home.ts";
import { BROWSER_TIMEOUT, describeInBrowser, useUiInBrowser, waitForText } from "../../helpers/ui-browser.ts";

/** The planner's reply, by an inline shell script whose argv holds newlines and quotes. */
const INLINE_SCRIPT = "cat >/dev/null\nprintf -- '---\\nplan: inline\\n---\\nDone.\\n'";

describeInBrowser("uwf ui's small breaks", () => {
  const home = createTempHome();
  const pidFile = join(home.work, "agent.pid");

  beforeAll(async () => {
    home.writeConfig(
      [
        "agents:",
        `  inline: { command: sh, args: ${JSON.stringify(["-c", INLINE_SCRIPT])} }`,
        `  slow: { command: sh, args: ${JSON.stringify([fixtureAgent("slow-valid")])} }`,
        "defaultAgent: inline",
      ].join("\n"),
    );
  }, BROWSER_TIMEOUT);

  const { ui, open, inPage } = useUiInBrowser(home, { signIn: true });

  async function stepOnce(thread: string, agent?: string): Promise<void> {
    const run = await home.uwf(["step", thread, ...(agent === undefined ? [] : ["--agent", agent])]);
    if (run.exitCode !== 0) throw new Error(`uwf step exited ${run.exitCode}: ${run.stderr}`);
  }

  async function plannerAddress(thread: string): Promise<string> {
    const log = (await home.uwf(["log", thread, "--json"])).json<{ steps: { address: string }[] }>();
    return log.steps[0]?.address as string;
  }

  it(
    "shows the agent's command as one quoted command line, and the graph's steps numbered once",
    async () => {
      const thread = await home.startThread(LINEAR, "Quote the command");
      await stepOnce(thread);
      await inPage(`/steps/${await plannerAddress(thread)}`, "step-command", async ({ page, problems }) => {
        await page.waitForSelector('[data-testid="step-command"]');
        const shown = await page.$eval('[data-testid="step-command"]', (element) => element.textContent);
        expect(shown).toBe("sh -c $'cat >/dev/null\\nprintf -- \\'---\\\\nplan: inline\\\\n---\\\\nDone.\\\\n\\''");
        // The line runs as the agent ran: bash reads it back to the same argv.
        const echoed = Bun.spawnSync(["bash", "-c", `printf '%s\\0' ${shown?.slice("sh ".length)}`]);
        expect(echoed.stdout.toString().split("\0").slice(0, -1)).toEqual(["-c", INLINE_SCRIPT]);
        expect(problems).toEqual([]);
      });
      await inPage(`/threads/${thread}/graph`, "graph-path", async ({ page }) => {
        await page.waitForSelector('[data-testid="graph-path"] li');
        // A string, evaluated in the page: the tests' TypeScript has no DOM types.
        const items = await page.evaluate(
          `Array.from(document.querySelectorAll('[data-testid="graph-path"] li')).map((element) => ({ text: element.textContent.trim(), marker: getComputedStyle(element).listStyleType }))`,
        );
        expect(items).toEqual([{ text: "1. planner", marker: "none" }]);
      });
    },
    BROWSER_TIMEOUT,
  );

  it(
    "clears an action's message once the thread moves on, and disables Step and Run while another process steps it",
    async () => {
      const thread = await home.startThread(LINEAR, "Move on");
      await inPage(`/threads/${thread}`, "actions-move-on", async ({ page, problems }) => {
        await page.waitForSelector('[data-testid="action-queue"]:not([disabled])');
        await page.click('[data-testid="action-queue"]');
        await waitForText(page, '[data-testid="action-queue-outcome"]', "Queued");

        // Another process steps it with an agent that waits for the test: the buttons wait too.
        const stepper = home.spawn(["step", thread, "--agent", "slow"], { env: { PID_FILE: pidFile } });
        await waitFor(() => existsSync(pidFile), { what: "the slow agent starting" });
        await page.waitForSelector('[data-testid="action-step"][disabled]');
        await page.waitForSelector('[data-testid="action-run"][disabled]');
        // Opened while that step runs, a page knows from the thread's lease.
        const late = await open(`/threads/${thread}`);
        await late.page.waitForSelector('[data-testid="action-step"][disabled]');
        await late.page.close();

        writeFileSync(`${pidFile}.release`, "");
        expect(await stepper.exited).toBe(0);
        // The thread moved on (a step by that process): the message about how it stood goes, the buttons come back.
        await page.waitForFunction(`document.querySelector('[data-testid="action-queue-outcome"]') === null`);
        await page.waitForSelector('[data-testid="action-step"]:not([disabled])');
        await page.waitForSelector('[data-testid="action-run"]:not([disabled])');
        expect(problems).toEqual([]);
      });
    },
    BROWSER_TIMEOUT,
  );

  it(
    "shows dates in one format on every page",
    async () => {
      const thread = await home.startThread(LINEAR, "Date me");
      await stepOnce(thread);
      const scored = await home.uwf(["eval", thread, "--assert", "steps[0].output.plan = 'inline'", "--json"]);
      expect(scored.exitCode).toBe(0);
      const report = evalResultSchema.parse(JSON.parse(scored.stdout)).report;
      const dateTime = /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/;
      await inPage("/experiments", "dates", async ({ page }) => {
        await waitForText(page, "main", report.slice(-8));
        expect(await page.$eval("main", (element) => element.textContent ?? "")).toMatch(dateTime);
        await page.goto(`${ui.origin}/experiments/${report}`, { waitUntil: "networkidle2" });
        await page.waitForFunction(
          `/\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}/.test(document.querySelector("main").textContent)`,
        );
        await page.goto(`${ui.origin}/threads/${thread}`, { waitUntil: "networkidle2" });
        await page.waitForSelector('[data-testid="step-row"]');
        expect(await page.$eval("main", (element) => element.textContent ?? "")).toMatch(dateTime);
      });
    },
    BROWSER_TIMEOUT,
  );

  it(
    "shows a report whose gate failed, with its failed verdict, not an error",
    async () => {
      const thread = await home.startThread(LINEAR, "Fail the gate");
      await stepOnce(thread);
      const report = await failedGateReport(home, thread);
      await inPage(`/experiments/${report}`, "failed-gate", async ({ page, problems }) => {
        await page.waitForSelector('[data-gate="broke"]');
        expect(await page.$(".error")).toBeNull();
        expect(problems).toEqual([]);
      });
    },
    BROWSER_TIMEOUT,
  );

  it(
    "lists the workflow versions stored threads run beside the registered ones",
    async () => {
      const file = join(home.work, "linear.yaml");
      writeFileSync(file, readFileSync(LINEAR, "utf8"));
      const thread = await home.startThread(file, "The old version");
      const old = (await home.showThread(thread)).workflowAddress;
      writeFileSync(file, readFileSync(LINEAR, "utf8").replace("Plan, then do", "Plan, then do it again"));
      expect((await home.uwf(["workflow", "add", file])).exitCode).toBe(0);
      const listed = workflowListResultSchema.parse(await (await fetch(`${ui.origin}/api/workflows`)).json());
      expect(listed.workflows).toContainEqual({
        name: "linear",
        hash: old,
        source: "thread",
        file: null,
        description: "Plan, then do",
      });
      expect(listed.workflows.filter((workflow) => workflow.source === "registry").map((w) => w.name)).toEqual([
        "linear",
      ]);
      await inPage("/workflows", "workflows-threads", async ({ page, problems }) => {
        await waitForText(page, ".workflow-list", old);
        await page.click(`a[href="/workflows/${old}"]`);
        await waitForText(page, ".graph-page", old);
        expect(problems).toEqual([]);
      });
    },
    BROWSER_TIMEOUT,
  );
});
