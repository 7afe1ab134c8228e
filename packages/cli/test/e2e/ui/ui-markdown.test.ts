/**
 * Markdown and JSON on the step and thread pages: a reply body, the start prompt and a question drawn as
 * markdown (headings, tables, code, lists) with a Raw toggle to the exact stored text, and a structured
 * reply field in a collapsible tree. Real `uwf ui`, real headless Chromium, a scripted agent. (What
 * hostile markdown can and cannot do is packages/ui/test/page-security.browser.test.ts.)
 *
 * Selectors: `step-body`, `step-edge-prompt`, `step-prompt`, `thread-prompt` (each `.markdown-text` with
 * data-view "markdown" or "raw"), `markdown-toggle`, `json-view`.
 * `UWF_UPDATE_SCREENSHOTS=1` also saves the step page as docs/images/ui-markdown.png.
 */
import { beforeAll, expect, it } from "bun:test";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { type LogResult, stepResultSchema } from "@uwf/protocol";
import { createTempHome } from "../../helpers/temp-home.ts";
import { BROWSER_TIMEOUT, describeInBrowser, useUiInBrowser, waitForText } from "../../helpers/ui-browser.ts";

const SCREENSHOT = resolve(import.meta.dir, "../../../../../docs/images/ui-markdown.png");
const BODY = [
  "## Findings",
  "",
  "| file | verdict |",
  "| --- | --- |",
  "| `login.ts` | **fixed** |",
  "| `logout.ts` | untouched |",
  "",
  "```ts",
  "redirect(to ?? '/');",
  "```",
  "",
  "- one",
  "- two",
].join("\n");
const WORKFLOW = [
  "name: notes",
  "roles:",
  "  writer:",
  "    goal: Write notes.",
  "    frontmatter:",
  "      type: object",
  "      properties:",
  "        summary: { type: string }",
  "        details: { type: object }",
  "      required: [summary]",
  "graph:",
  "  $START: [ { role: writer, prompt: 'Write the **notes**.' } ]",
  "  writer: [ { role: $END, prompt: 'Done.' } ]",
  "",
].join("\n");

describeInBrowser("uwf ui: markdown and JSON", () => {
  const home = createTempHome();
  let thread: string;
  let step: string;

  beforeAll(async () => {
    const workflow = join(home.work, "notes.yaml");
    writeFileSync(workflow, WORKFLOW);
    const scenario = join(home.work, "notes.scenario.json");
    const details = { files: { "login.ts": { lines: [3, 9] } }, risk: "low" };
    writeFileSync(
      scenario,
      JSON.stringify({ steps: [{ role: "writer", output: { summary: "fixed", details }, body: BODY }] }),
    );
    const run = await home.uwf([
      "run",
      workflow,
      "-p",
      "# Task\n\nFix the *login* redirect.",
      "--agent",
      `scripted:${scenario}`,
      "--json",
    ]);
    expect(run.exitCode).toBe(0);
    thread = stepResultSchema.parse(run.json()).thread;
    step = ((await home.uwf(["log", thread, "--json"])).json<LogResult>().steps[0] as { address: string }).address;
  }, BROWSER_TIMEOUT);

  const { inPage } = useUiInBrowser(home);

  it(
    "draws a reply body as markdown with a raw toggle, and a structured field as a collapsible tree",
    async () => {
      await inPage(`/steps/${step}`, "markdown", async ({ page, problems }) => {
        const body = '[data-testid="step-body"]';
        await page.waitForSelector(`${body} .markdown-body table`, { timeout: 10_000 });
        await waitForText(page, `${body} h2`, "Findings");
        expect(
          await page.$$eval(`${body} tbody tr`, (rows) =>
            rows.map((row) => (row.textContent ?? "").replace(/\s+/g, "")),
          ),
        ).toEqual(["login.tsfixed", "logout.tsuntouched"]);
        expect(await page.$eval(`${body} pre code`, (code) => code.textContent)).toBe("redirect(to ?? '/');\n");
        expect(await page.$$eval(`${body} li`, (items) => items.length)).toBe(2);
        // The edge prompt too: its emphasis is drawn.
        await waitForText(page, '[data-testid="step-edge-prompt"] strong', "notes");

        // Raw: the exact stored text, then back.
        await page.click(`${body} [data-testid="markdown-toggle"]`);
        await page.waitForSelector(`${body}[data-view="raw"] pre`);
        expect(await page.$eval(`${body} pre`, (pre) => pre.textContent)).toBe(BODY);
        await page.click(`${body} [data-testid="markdown-toggle"]`);
        await page.waitForSelector(`${body}[data-view="markdown"] table`);

        // The object field: a tree, its first level open, deeper levels folded until opened.
        const tree = '[data-testid="step-output"] [data-testid="json-view"]';
        await waitForText(page, tree, '"risk"');
        const folded = `${tree} details details`;
        expect(await page.$eval(folded, (details) => (details as unknown as { open: boolean }).open)).toBe(false);
        await page.click(`${folded} > summary`);
        await waitForText(page, `${tree} details details`, '"login.ts"');
        if (process.env.UWF_UPDATE_SCREENSHOTS === "1") {
          await page.screenshot({ path: SCREENSHOT as `${string}.png` });
        }
        expect(problems).toEqual([]);
      });

      // The thread's start prompt, as markdown.
      await inPage(`/threads/${thread}`, "markdown-thread-prompt", async ({ page, problems }) => {
        await waitForText(page, '[data-testid="thread-prompt"] h1', "Task");
        await waitForText(page, '[data-testid="thread-prompt"] em', "login");
        expect(problems).toEqual([]);
      });
    },
    BROWSER_TIMEOUT,
  );
});
