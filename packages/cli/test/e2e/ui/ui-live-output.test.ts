/**
 * Issue 46 item 3: a step's live output. A command agent (fixtures/agents/print-live.sh) prints a line on
 * stdout and one on stderr, then waits for the test's go before its last line; a separate `uwf step`
 * process runs it while another process's `uwf ui` serves the page (and, in the second test, a `uwf log
 * --follow -v` watches): the lines must show while the step still runs, and stay readable after. Run on
 * the embedded store and on PostgreSQL, where the three processes share only the database.
 *
 * Selectors: `live-output` (data-step), `live-output-text` on the thread page; `step-agent-output-text`
 * on the step page. `UWF_UPDATE_SCREENSHOTS=1` also saves the running step's panel as
 * docs/images/ui-live-output.png.
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { startTestPostgres } from "@uwf/cas/test";
import { type AgentOutputResult, agentOutputResultSchema } from "@uwf/protocol";
import { createTempHome, fixtureAgentsConfig, LINEAR, type TempHome } from "../../helpers/temp-home.ts";
import { BROWSER_TIMEOUT, describeInBrowser, useUiInBrowser, waitForText } from "../../helpers/ui-browser.ts";
import { until } from "../../helpers/until.ts";

const SCREENSHOT = resolve(import.meta.dir, "../../../../../docs/images/ui-live-output.png");

for (const backend of ["embedded", "PostgreSQL"] as const) {
  describeInBrowser(`uwf ui and uwf log -v: a running step's output (${backend} store)`, () => {
    let home: TempHome;

    beforeAll(async () => {
      // On PostgreSQL the stepping process, the UI and the follower share only the database, as on three hosts.
      const store: Record<string, string> =
        backend === "PostgreSQL" ? { UWF_STORE: (await startTestPostgres()).newStoreUrl() } : {};
      home = createTempHome({ env: store });
      home.writeConfig([...fixtureAgentsConfig(["print-live"]), ""].join("\n"));
    }, BROWSER_TIMEOUT);

    const { ui, inPage } = useUiInBrowser(() => home);

    it(
      "streams what another process's step prints onto the thread page before the step ends, and keeps it on the step page",
      async () => {
        const thread = await home.startThread(LINEAR, "Write live.txt");
        const address = new URL(ui.url);
        address.pathname = `/threads/${thread}`;
        await inPage(address.href, "live-output", async ({ page, problems }) => {
          await page.waitForSelector('[data-testid="thread-page"]');
          const pidFile = join(home.work, "print-live.pid");
          const stepper = home.spawn(["step", thread, "--agent", "print-live"], { env: { PID_FILE: pidFile } });
          try {
            await waitForText(page, '[data-testid="live-output-text"]', "first live line", 20_000);
            await waitForText(page, '[data-testid="live-output-text"]', "thinking about the plan");
            // The agent waits for the go: the step has not ended, nor been recorded.
            expect(existsSync(pidFile)).toBe(true);
            expect(stepper.exitCode).toBeNull();
            expect(await page.$('[data-testid="step-row"][data-step="1"]')).toBeNull();
            expect(
              await page.$eval('[data-testid="live-output"]', (element) => element.getAttribute("data-step")),
            ).toBe("1");
            if (process.env.UWF_UPDATE_SCREENSHOTS === "1" && backend === "embedded") {
              const panel = await page.$('[data-testid="live-output"]');
              await panel?.screenshot({ path: SCREENSHOT as `${string}.png` });
            }
          } finally {
            await Bun.write(`${pidFile}.release`, "");
          }
          expect(await stepper.exited).toBe(0);
          await waitForText(page, '[data-testid="live-output-text"]', "last live line");
          await page.waitForSelector('[data-testid="step-row"][data-step="1"]', { timeout: 10_000 });

          await page.click('[data-testid="step-row"][data-step="1"] a[href^="/steps/"]');
          await page.waitForSelector('[data-testid="step-agent-output-text"]', { timeout: 10_000 });
          const text = await page.$eval(
            '[data-testid="step-agent-output-text"]',
            (element) => element.textContent ?? "",
          );
          expect(text).toContain("first live line");
          expect(text).toContain("thinking about the plan");
          expect(text).toContain("last live line");
          const stderrLine = await page.$eval(
            '[data-testid="step-agent-output-text"] .out-stderr',
            (element) => element.textContent ?? "",
          );
          expect(stderrLine).toContain("thinking about the plan");
          expect(problems).toEqual([]);
        });
      },
      BROWSER_TIMEOUT,
    );

    it(
      "prints the running step's output under uwf log --follow -v, and uwf log --agent-output keeps it",
      async () => {
        const thread = await home.startThread(LINEAR, "Write follow.txt");
        const follower = home.spawn(["log", thread, "--follow", "-v"]);
        let followed = "";
        void (async () => {
          const decoder = new TextDecoder();
          for await (const chunk of follower.stderr as ReadableStream<Uint8Array>) followed += decoder.decode(chunk);
        })();
        const pidFile = join(home.work, "follow.pid");
        const stepper = home.spawn(["step", thread, "--agent", "print-live"], { env: { PID_FILE: pidFile } });
        try {
          await until(() => followed.includes("first live line"), "the first line under log --follow -v");
          await until(() => followed.includes("thinking about the plan"), "the stderr line under log --follow -v");
          expect(stepper.exitCode).toBeNull();
          expect(followed).not.toContain("last live line");
        } finally {
          await Bun.write(`${pidFile}.release`, "");
        }
        expect(await stepper.exited).toBe(0);
        await until(() => followed.includes("last live line"), "the last line under log --follow -v");
        follower.kill("SIGTERM");
        await follower.exited;

        const stored = await home.uwf(["log", thread, "--agent-output", "--step", "1", "--json"]);
        expect(stored.exitCode).toBe(0);
        const result: AgentOutputResult = agentOutputResultSchema.parse(stored.json());
        expect(result.thread).toBe(thread);
        expect(result.step).toBe(1);
        expect(result.chunks.map((chunk) => chunk.step)).toEqual(result.chunks.map(() => 1));
        const byStream = (stream: string) =>
          result.chunks
            .filter((chunk) => chunk.stream === stream)
            .map((chunk) => chunk.text)
            .join("");
        expect(byStream("stdout")).toBe("---\nplan: live plan\n---\nfirst live line\nlast live line\n");
        expect(byStream("stderr")).toBe("thinking about the plan\n");
        const text = await home.uwf(["log", thread, "--agent-output"]);
        expect(text.stdout).toContain("last live line");
        const refused = await home.uwf(["log", thread, "--step", "1"]);
        expect(refused.exitCode).toBe(2);
        expect(refused.stderr).toContain("--agent-output");
      },
      BROWSER_TIMEOUT,
    );
  });
}

describe("a step's live output past its cap", () => {
  const home = createTempHome();
  afterAll(() => home.cleanup());

  it(
    "keeps the first 1 MiB of a run and says it cut the rest, the step itself unharmed",
    async () => {
      home.writeConfig([...fixtureAgentsConfig(["chatty-stderr"]), ""].join("\n"));
      const thread = await home.startThread(LINEAR, "Write noisy.txt");
      const step = await home.uwf(["step", thread, "--agent", "chatty-stderr"]);
      expect(step.exitCode).toBe(0);
      const stored = agentOutputResultSchema.parse(
        (await home.uwf(["log", thread, "--agent-output", "--step", "1", "--json"])).json(),
      );
      const kept = stored.chunks.filter((chunk) => chunk.stream === "stderr").map((chunk) => chunk.text);
      expect(Buffer.byteLength(kept.join(""))).toBe(1024 * 1024);
      expect(stored.chunks.at(-1)).toMatchObject({
        stream: "uwf",
        text: "[uwf: output truncated: this run's first 1 MiB are kept]\n",
      });
      // The reply came after the cap: the step has it whole.
      const log = await home.uwf(["log", thread, "--json"]);
      expect(log.json<{ steps: { role: string }[] }>().steps.map((entry) => entry.role)).toEqual(["planner"]);
    },
    BROWSER_TIMEOUT,
  );
});
