import { beforeAll, expect, it } from "bun:test";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { evalResultSchema, type ForkResult, forkResultSchema, type StepResult, stepResultSchema } from "@uwf/protocol";
import type { Page } from "puppeteer-core";
import { createTempHome, FIXTURES, LINEAR, SCRIPTED } from "../../helpers/temp-home.ts";
import { BROWSER_TIMEOUT, describeInBrowser, textsOf, useUiInBrowser, waitForText } from "../../helpers/ui-browser.ts";
import { uwfExiting } from "../../helpers/uwf-exiting.ts";

/**
 * The Graph, Family, Diff and Experiments pages in a real headless Chromium, over a home holding threads
 * of both workflow styles (list transitions with a JSONata condition, `$status`-keyed maps) stepped by
 * scripted agents, a family made by `uwf fork` and `uwf fork NODE --output FILE`, an invalid project
 * workflow, and a report made by `uwf eval`.
 */
const WORKFLOWS = join(FIXTURES, "workflows");
const ROUTING = join(WORKFLOWS, "routing.yaml");
const ASK = join(WORKFLOWS, "ask.yaml");

describeInBrowser("uwf ui pages: graph, family, diff, experiments", () => {
  const home = createTempHome();
  /** routing, stepped twice (worker rejected, worker approved): stands at reviewer, not run yet. */
  let midRun: string;
  /** ask, suspended at its first step (asker asked a question). */
  let suspended: string;
  /** linear, ended after planner and doer; its fork at step 1; its counterfactual fork at step 2. */
  let original: StepResult;
  let fork: ForkResult;
  let counterfactual: ForkResult;
  /** The linear thread's step 1 continued on another version of its workflow (`fork --workflow`). */
  let moved: ForkResult;
  let report: string;

  /** Runs uwf; `expected` is the exit code it must end with (20: suspended). */
  async function uwf(args: string[], expected = 0): Promise<string> {
    return (await uwfExiting(home, args, expected)).stdout;
  }

  beforeAll(async () => {
    const loop = join(home.work, "routing-loop.scenario.yaml");
    writeFileSync(
      loop,
      [
        "steps:",
        "  - role: worker",
        "    output: { $status: rejected, summary: first try }",
        "    body: Not yet.",
        "  - role: worker",
        "    output: { $status: approved, summary: Wrote hello.txt }",
        "    body: Done.",
        "",
      ].join("\n"),
    );
    midRun = await home.startThread(ROUTING, "Write hello.txt");
    await uwf(["step", midRun, "--steps", "2", "--agent", `scripted:${loop}`, "--json"]);

    suspended = stepResultSchema.parse(
      JSON.parse(
        await uwf(
          ["run", ASK, "-p", "Which colour?", "--agent", `scripted:${join(WORKFLOWS, "ask.scenario.yaml")}`, "--json"],
          20,
        ),
      ),
    ).thread;

    original = stepResultSchema.parse(
      JSON.parse(await uwf(["run", LINEAR, "-p", "Write hello.txt", "--agent", SCRIPTED, "--json"])),
    );
    const [first, second] = original.steps;
    if (first === undefined || second === undefined) throw new Error("the linear thread has no two steps");
    fork = forkResultSchema.parse(JSON.parse(await uwf(["fork", first.address, "--json"])));
    const reply = join(home.work, "reply.md");
    writeFileSync(reply, "---\ndone: false\n---\nCould not write hello.txt.\n");
    counterfactual = forkResultSchema.parse(
      JSON.parse(await uwf(["fork", second.address, "--output", reply, "--json"])),
    );
    const v2 = join(home.work, "linear.yaml");
    writeFileSync(v2, readFileSync(LINEAR, "utf8").replace("Carry out this plan:", "Now do this plan:"));
    moved = forkResultSchema.parse(JSON.parse(await uwf(["fork", first.address, "--workflow", v2, "--json"])));

    // A project workflow that does not validate (a role it cannot reach, an edge to a role it lacks).
    mkdirSync(join(home.home, "workflows"), { recursive: true });
    writeFileSync(
      join(home.home, "workflows", "broken.yaml"),
      "name: broken\nroles:\n  worker:\n    goal: Work.\ngraph:\n  $START:\n    - { role: nobody, prompt: go }\n  worker:\n    - { role: $END, prompt: done }\n",
    );

    // A small eval: the e2e suite's 2 cases × 2 variants, 2 repeats each.
    cpSync(join(FIXTURES, "eval"), join(home.work, "eval"), { recursive: true });
    const suite = join(home.work, "eval", "suite.yaml");
    writeFileSync(suite, readFileSync(suite, "utf8").replace(/^repeat: \d+$/m, "repeat: 2"));
    home.writeConfig(
      ["agents:", `  judge-sh: { command: sh, args: ["${join(home.work, "eval", "judge.sh")}"] }`, ""].join("\n"),
    );
    report = evalResultSchema.parse(JSON.parse(await uwf(["eval", "--suite", suite, "--json"]))).report;
  }, BROWSER_TIMEOUT);

  const { inPage } = useUiInBrowser(home);

  function attribute(page: Page, selector: string, name: string): Promise<string | null> {
    return page.evaluate(
      `document.querySelector(${JSON.stringify(selector)})?.getAttribute(${JSON.stringify(name)}) ?? null`,
    ) as Promise<string | null>;
  }

  it("marks a mid-run thread's current role, its visits and the edges it took, with every role drawn", async () => {
    await inPage(`/threads/${midRun}/graph`, "graph-mid-run", async ({ page, problems }) => {
      await page.waitForSelector(".graph-node.current");
      expect(await textsOf(page, ".graph-node.current .graph-node-name")).toEqual(["reviewer"]);
      expect(await textsOf(page, ".graph-node .graph-node-name")).toEqual(
        expect.arrayContaining(["$START", "worker", "reviewer", "$END"]),
      );
      expect(await attribute(page, '.graph-node[data-role="worker"]', "data-visits")).toBe("2");
      expect(await textsOf(page, '.graph-node[data-role="worker"] .graph-node-visits')).toEqual(["2 visits"]);
      expect(await attribute(page, '.graph-node[data-role="reviewer"]', "data-visits")).toBe("0");
      // Taken: $START → worker, worker → worker (rejected), worker → reviewer (approved); not the others.
      expect(await attribute(page, '.graph-edge[data-edge="$START->worker"]', "data-count")).toBe("1");
      expect(await attribute(page, '.graph-edge[data-edge="worker->worker"]', "data-count")).toBe("1");
      expect(await attribute(page, '.graph-edge[data-edge="worker->reviewer"]', "data-count")).toBe("1");
      expect(await attribute(page, '.graph-edge[data-edge="reviewer->$END"]', "data-count")).toBe("0");
      // Labels: the list form's $status and JSONata condition edges, the map form's $status keys.
      expect(await textsOf(page, ".graph-label-text")).toEqual(
        expect.arrayContaining(["approved ×1", "rejected ×1", "if gave_up", "changes", "done"]),
      );
      await waitForText(page, ".graph-where", "Stands at reviewer");
      expect(problems).toEqual([]);
    });
  }, 30_000);

  it("marks a suspended thread's role as current", async () => {
    await inPage(`/threads/${suspended}/graph`, "graph-suspended", async ({ page, problems }) => {
      await page.waitForSelector(".graph-node.current");
      expect(await textsOf(page, ".graph-node.current .graph-node-name")).toEqual(["asker"]);
      expect(await attribute(page, '.graph-node[data-role="asker"]', "data-visits")).toBe("1");
      expect(await textsOf(page, ".graph-node .graph-node-name")).toEqual(
        expect.arrayContaining(["$START", "asker", "$END"]),
      );
      await waitForText(page, ".graph-where", "suspended");
      expect(problems).toEqual([]);
    });
  }, 30_000);

  it("marks an ended thread's last role and its edge to $END", async () => {
    await inPage(`/threads/${original.thread}/graph`, "graph-ended", async ({ page, problems }) => {
      await page.waitForSelector(".graph-node.current");
      expect(await textsOf(page, ".graph-node.current .graph-node-name")).toEqual(["doer"]);
      expect(await attribute(page, '.graph-edge[data-edge="doer->$END"]', "data-count")).toBe("1");
      expect(problems).toEqual([]);
    });
  }, 30_000);

  it("lists the workflows and draws one alone; an invalid project workflow shows its problems", async () => {
    await inPage("/workflows", "workflows", async ({ page, problems }) => {
      await waitForText(page, ".workflow-list", "broken");
      await waitForText(page, ".workflow-list", "routing");
      expect(problems).toEqual([]);
    });

    await inPage("/workflows/routing", "workflow-routing", async ({ page, problems }) => {
      await page.waitForSelector(".graph-node");
      expect(await textsOf(page, ".graph-node .graph-node-name")).toEqual(
        expect.arrayContaining(["$START", "worker", "reviewer", "$END"]),
      );
      expect(await textsOf(page, ".graph-node.current")).toEqual([]);
      expect(problems).toEqual([]);
    });

    await inPage("/workflows/broken", "workflow-broken", async ({ page, problems }) => {
      await waitForText(page, ".problems", 'unknown role "nobody"');
      await waitForText(page, ".problems", "unreachable");
      await waitForText(page, ".error-code", "invalid-workflow");
      // The API's 422 for the invalid workflow is the one resource error the page has.
      expect(problems).toEqual([
        "console: Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)",
      ]);
    });
  }, 30_000);

  it("lists a family with a fork and a counterfactual fork; picking two opens their diff", async () => {
    // Opened from the counterfactual fork: the page draws the whole family, from its root.
    await inPage(`/threads/${counterfactual.thread}/family`, "family", async ({ page, problems }) => {
      for (const thread of [original.thread, fork.thread, counterfactual.thread]) {
        await page.waitForSelector(`.family-member[data-thread="${thread}"]`);
      }
      await waitForText(page, `.family-member[data-thread="${fork.thread}"]`, "forked at step 1");
      await waitForText(page, `.family-member[data-thread="${counterfactual.thread}"]`, "forked at step 2");
      await waitForText(page, `.family-member[data-thread="${counterfactual.thread}"]`, "replaced reply");
      // Steps of its own (from `compare`): none for either; a replaced reply is in the chain but no agent ran it.
      await waitForText(page, `.family-member[data-thread="${fork.thread}"]`, "1 step (0 own)");
      await waitForText(page, `.family-member[data-thread="${counterfactual.thread}"]`, "2 steps (0 own)");
      expect(await textsOf(page, `.family-member[data-thread="${fork.thread}"] .family-tag`)).toEqual([]);
      await waitForText(page, `.family-member[data-thread="${original.thread}"] .outcome-text`, "doer");
      // A fork continued on another workflow version is tagged with the version it runs under.
      await waitForText(
        page,
        `.family-member[data-thread="${moved.thread}"] .family-tag.onto`,
        `onto linear@${moved.workflow}`,
      );

      expect(await attribute(page, ".family-diff", "disabled")).not.toBeNull();
      await page.click(`input[aria-label="select ${original.thread}"]`);
      await page.click(`input[aria-label="select ${counterfactual.thread}"]`);
      await page.click(".family-diff");
      await page.waitForFunction(
        `location.pathname === ${JSON.stringify(`/diff/${original.thread}/${counterfactual.thread}`)}`,
      );
      await page.waitForSelector(".diff-table");
      expect(problems).toEqual([]);
    });
  }, 30_000);

  it("shows on a fork's page the workflow version its parent ran under, when it continued on another", async () => {
    await inPage(`/threads/${moved.thread}`, "moved-fork", async ({ page, problems }) => {
      await waitForText(page, '[data-testid="thread-forked-from"]', original.thread);
      await waitForText(page, '[data-testid="thread-forked-from"]', `from workflow ${moved.forkedFrom.workflow}`);
      expect(problems).toEqual([]);
    });
  }, 30_000);

  it("shows a diff: the common prefix folded, a changed field, the bodies as a coloured unified diff", async () => {
    await inPage(`/diff/${original.thread}/${counterfactual.thread}`, "diff", async ({ page, problems }) => {
      await waitForText(page, ".diff-prefix summary", "1 common step");
      expect(await page.evaluate(`document.querySelector("details.diff-prefix").open`)).toBe(false);
      await page.click(".diff-prefix summary");
      await waitForText(page, ".diff-common-steps", "planner");

      await waitForText(page, '.diff-step[data-step="2"]', "doer");
      const changed = await textsOf(page, '.diff-field.change-changed[data-field="done"] td');
      expect(changed).toEqual(["true", "false"]);
      expect(await textsOf(page, ".unified-diff .diff-line.del")).toEqual(["-Wrote hello.txt."]);
      expect(await textsOf(page, ".unified-diff .diff-line.add")).toEqual(["+Could not write hello.txt."]);
      await waitForText(page, ".diff-totals", "steps");
      expect(problems).toEqual([]);
    });
  }, 30_000);

  it("lists the eval report and draws its charts, each sample linking to its thread", async () => {
    await inPage("/experiments", "experiments", async ({ page, problems }) => {
      await page.waitForSelector(`.eval-reports tr[data-report="${report}"]`);
      await waitForText(page, `.eval-reports tr[data-report="${report}"]`, "login-fix");
      await page.click(`.eval-reports tr[data-report="${report}"] a`);
      await page.waitForFunction(`location.pathname === ${JSON.stringify(`/experiments/${report}`)}`);
      await page.waitForSelector('.eval-chart canvas[data-drawn="true"]');
      const inked = (await page.evaluate(`Array.from(document.querySelectorAll(".eval-chart canvas")).map((canvas) => {
        const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
        let inked = 0;
        for (let index = 3; index < data.length; index += 4) if (data[index] > 0) inked += 1;
        return inked;
      })`)) as number[];
      expect(inked.length).toBe(6);
      for (const count of inked) expect(count).toBeGreaterThan(100);
      await waitForText(page, ".eval-gate", "Gate held");
      await waitForText(page, ".eval-variants", "careful");
      await waitForText(page, ".eval-variants", "hasty");
      const samples = (await page.evaluate(
        `Array.from(document.querySelectorAll(".eval-samples tbody tr td:first-child a")).map((link) => link.getAttribute("href"))`,
      )) as string[];
      expect(samples.length).toBe(8);
      for (const href of samples) expect(href).toMatch(/^\/threads\/[0-9A-Z]{26}$/);
      // The suite's judge assertion: each sample links to the thread that judged it too.
      expect(await textsOf(page, ".eval-samples .eval-judge")).toEqual(samples.map(() => "judge"));
      expect(problems).toEqual([]);
    });
  }, 30_000);
});
