/**
 * A typed suspension answered in the web UI: the thread page builds its resume form from the role's
 * answer schema (`suspension.answerSchema`), and the server checks the answer as `uwf resume --answer`
 * does. Real `uwf ui`, real headless Chromium, a scripted agent.
 *
 * Selectors: `answer-form`, `resume-asked` (the fields the role sent), `answer-field-NAME` (one input per
 * field of the schema: a checkbox for a boolean, a select for an enum, text, number, or a JSON textarea),
 * `answer-json` (a schema without properties), `answer-problem` (an input that is not a value yet).
 * `UWF_UPDATE_SCREENSHOTS=1` also saves the form, filled in, as docs/images/ui-answer.png.
 */
import { beforeAll, expect, it } from "bun:test";
import { join, resolve } from "node:path";
import { type StepResult, shownThreadSchema, threadStepNodeSchema } from "@uwf/protocol";
import { createTempHome, FIXTURES } from "../../helpers/temp-home.ts";
import { BROWSER_TIMEOUT, describeInBrowser, useUiInBrowser, waitForText } from "../../helpers/ui-browser.ts";

const APPROVAL = join(FIXTURES, "workflows/approval.yaml");
const SCENARIO = join(FIXTURES, "workflows/approval.scenario.yaml");
const SCREENSHOT = resolve(import.meta.dir, "../../../../../docs/images/ui-answer.png");

describeInBrowser("uwf ui: answering a typed suspension", () => {
  const home = createTempHome();
  let suspended: string;

  beforeAll(async () => {
    home.writeConfig([`defaultAgent: "scripted:${SCENARIO}"`, ""].join("\n"));
    const run = await home.uwf(["run", APPROVAL, "-p", "Ship v2", "--json"]);
    expect(run.exitCode).toBe(20);
    suspended = run.json<StepResult>().thread;
  }, BROWSER_TIMEOUT);

  const { inPage } = useUiInBrowser(home, { signIn: true });

  it(
    "refuses an answer the schema refuses (the thread unchanged), then answers an approval from the form built from its schema",
    async () => {
      await inPage(`/threads/${suspended}`, "answer", async ({ page, problems }) => {
        await waitForText(page, '[data-testid="resume-question"]', "Deploy to production?");
        // What the role sent, and one input per field of `answer: approval`.
        await waitForText(page, '[data-testid="resume-asked"]', "Deploy v2 now?");
        await waitForText(page, '[data-testid="resume-asked"]', "high");
        expect(await page.$eval('[data-testid="answer-field-approved"]', (input) => input.getAttribute("type"))).toBe(
          "checkbox",
        );
        expect(await page.$eval('[data-testid="answer-field-comment"]', (input) => input.tagName)).toBe("TEXTAREA");

        // The server checks an answer exactly as the CLI does: one it refuses changes nothing.
        const before = shownThreadSchema.parse((await home.uwf(["show", suspended, "--json"])).json());
        const refused = (await page.evaluate(`fetch("/api/threads/${suspended}/resume", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ answer: { approved: "yes" } }),
        }).then(async (response) => ({ status: response.status, body: await response.json() }))`)) as {
          status: number;
          body: { error: { code: string; data: { field: string } } };
        };
        expect(refused.status).toBe(400);
        expect(refused.body.error.code).toBe("invalid-answer");
        expect(refused.body.error.data.field).toBe("approved");
        expect(shownThreadSchema.parse((await home.uwf(["show", suspended, "--json"])).json())).toEqual(before);

        await page.click('[data-testid="answer-field-approved"]');
        await page.type('[data-testid="answer-field-comment"]', "Ship it after the freeze.");
        if (process.env.UWF_UPDATE_SCREENSHOTS === "1") {
          const form = await page.$('[data-testid="thread-actions"]');
          await form?.screenshot({ path: SCREENSHOT as `${string}.png` });
        }
        await page.click('[data-testid="resume-submit"]');
        await page.waitForSelector('[data-testid="resume-outcome"][data-outcome="ok"]', { timeout: 20_000 });
        await waitForText(page, '[data-testid="thread-status"]', "ended");

        const shown = shownThreadSchema.parse((await home.uwf(["show", suspended, "--json"])).json());
        expect(shown.status).toBe("ended");
        expect(shown.outcome?.role).toBe("deployer");
        const head = threadStepNodeSchema.parse((await home.uwf(["cas", "get", shown.head])).json());
        expect(head.edgePrompt).toBe("Deploy. The person said: Ship it after the freeze.");
        // The one refusal the page was given, logged by Chromium as a failed resource.
        expect(problems.filter((problem) => !/status of 400/.test(problem))).toEqual([]);
      });
    },
    BROWSER_TIMEOUT,
  );
});
