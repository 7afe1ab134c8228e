import { beforeAll, expect, it } from "bun:test";
import { join } from "node:path";
import { type BranchGroup, shownThreadSchema, stepResultSchema } from "@uwf/protocol";
import type { Page } from "puppeteer-core";
import { createTempHome, FIXTURES } from "../../helpers/temp-home.ts";
import { BROWSER_TIMEOUT, describeInBrowser, textsOf, useUiInBrowser, waitForText } from "../../helpers/ui-browser.ts";
import { uwfExiting } from "../../helpers/uwf-exiting.ts";

/**
 * Branches in the web UI, in a real headless Chromium, over threads the real engine fanned out
 * (fan-out-review.yaml with its scripted agent: a planner, three reviewer branches, a synthesizer's join):
 * the thread page's fan-out group (joined, and pending then joined live), a branch's page naming its
 * parent, the threads page's `waiting` filter and branch rows, the family page's branches, and the
 * graph's fan-out edge.
 *
 * Selectors: `branch-group` (data-step, data-joined), `branch-group-state`, `branch-row` (data-key,
 * data-thread), `fan-out-mark`, `join-mark`, `thread-waiting`, `thread-branch-of`, `branch-tag`; the
 * family's `.family-member[data-kind]`; the graph's `.graph-node.branch` and `.graph-edge.fan-out`.
 */
const REVIEW = join(FIXTURES, "workflows/fan-out-review.yaml");
const KEYS = ["security", "speed", "style"];
/** The planner, each reviewer branch's one reply, and the synthesizer's join. */
const AGENT = `scripted:${join(FIXTURES, "workflows/fan-out-review.scenario.yaml")}`;

describeInBrowser("uwf ui: branches", () => {
  const home = createTempHome();
  /** Run to its end: fanned out at step 1, joined at step 2. */
  let joined: string;
  let joinedGroup: BranchGroup;
  /** Stepped once: waiting for its three branches, none run. */
  let waiting: string;
  /** Stepped once too; the live test runs it on while its page is open. */
  let live: string;

  async function uwf(args: string[], expected = 0): Promise<string> {
    return (await uwfExiting(home, args, expected)).stdout;
  }

  async function fannedOut(): Promise<string> {
    const thread = await home.startThread(REVIEW, "Cache the user service");
    expect(stepResultSchema.parse(JSON.parse(await uwf(["step", thread, "--agent", AGENT, "--json"]))).status).toBe(
      "waiting",
    );
    return thread;
  }

  beforeAll(async () => {
    joined = stepResultSchema.parse(
      JSON.parse(await uwf(["run", REVIEW, "-p", "Cache the user service", "--agent", AGENT, "--json"])),
    ).thread;
    const [group] = shownThreadSchema.parse(JSON.parse(await uwf(["show", joined, "--json"]))).branches ?? [];
    if (group === undefined) throw new Error("the run made no fan-out");
    joinedGroup = group;
    waiting = await fannedOut();
    live = await fannedOut();
  }, BROWSER_TIMEOUT);

  const { inPage } = useUiInBrowser(home);

  function attributes(page: Page, selector: string, name: string): Promise<(string | null)[]> {
    return page.evaluate(
      `Array.from(document.querySelectorAll(${JSON.stringify(selector)})).map((element) => element.getAttribute(${JSON.stringify(name)}))`,
    ) as Promise<(string | null)[]>;
  }

  it("shows a joined fan-out under its step, each branch linked with its state; a branch's page names its parent", async () => {
    await inPage(`/threads/${joined}`, "branches-joined", async ({ page, problems }) => {
      await page.waitForSelector('[data-testid="branch-group"]');
      expect(await attributes(page, '[data-testid="branch-group"]', "data-step")).toEqual(["1"]);
      expect(await attributes(page, '[data-testid="branch-group"]', "data-joined")).toEqual(["2"]);
      await waitForText(page, '[data-testid="branch-group-state"]', "joined at step 2");
      await waitForText(page, '[data-testid="branch-group"] h3', "join synthesizer (all)");
      expect(await attributes(page, '[data-testid="branch-row"]', "data-key")).toEqual(KEYS);
      expect(await attributes(page, '[data-testid="branch-row"]', "data-thread")).toEqual(
        joinedGroup.branches.map((branch) => branch.thread),
      );
      expect(await attributes(page, '[data-testid="branch-row"] .status-badge', "data-status")).toEqual([
        "ended",
        "ended",
        "ended",
      ]);
      // The group sits right under the step that fanned out; the join step is marked. The steps come from
      // the log, fetched beside the thread: wait for them before reading them.
      await page.waitForSelector('[data-step="2"] [data-testid="join-mark"]');
      expect(await textsOf(page, '[data-step="1"] [data-testid="fan-out-mark"]')).toEqual(["⇉ fan-out"]);
      expect(await textsOf(page, '[data-step="2"] [data-testid="join-mark"]')).toEqual(["⇇ join"]);

      const security = joinedGroup.branches[0]?.thread as string;
      await page.click(`[data-testid="branch-row"][data-key="security"] a`);
      await page.waitForFunction(`location.pathname === ${JSON.stringify(`/threads/${security}`)}`);
      await waitForText(page, '[data-testid="thread-branch-of"]', `branch security of ${joined} at step 1`);
      await waitForText(page, '[data-testid="thread-outcome"]', "a branch's one reply");
      // Its first step is its parent's (a role branch shares the history up to the fan-out); its second its own.
      await page.waitForSelector('[data-step="2"]');
      await page.waitForSelector('[data-step="1"] [data-testid="shared-step"]');
      expect(await textsOf(page, '[data-step="1"] [data-testid="shared-step"]')).toEqual(["parent's"]);
      expect(await textsOf(page, '[data-step="2"] [data-testid="shared-step"]')).toEqual([]);
      await page.click(`[data-testid="thread-branch-of"] a[href="/threads/${joined}"]`);
      await page.waitForSelector(`[data-testid="thread-page"][data-thread="${joined}"]`);
      expect(problems).toEqual([]);
    });
  }, 30_000);

  it("follows a pending fan-out live: its branches' states and the join appear without a reload", async () => {
    await inPage(`/threads/${live}`, "branches-live", async ({ page, problems }) => {
      await waitForText(page, '[data-testid="branch-group-state"]', "pending");
      await waitForText(page, '[data-testid="thread-waiting"]', "synthesizer");
      expect(await attributes(page, '[data-testid="branch-row"] .status-badge', "data-status")).toEqual([
        "active",
        "active",
        "active",
      ]);
      await uwf(["step", live, "--all", "--agent", AGENT]);
      await waitForText(page, '[data-testid="branch-group-state"]', "joined at step 2", 20_000);
      await page.waitForFunction(
        `Array.from(document.querySelectorAll('[data-testid="branch-row"] .status-badge')).every((badge) => badge.getAttribute("data-status") === "ended")`,
      );
      await waitForText(page, '[data-testid="thread-status"]', "ended");
      expect(problems).toEqual([]);
    });
  }, 40_000);

  it("filters the threads page by waiting and marks branch rows with their parent", async () => {
    await inPage("/", "branches-threads", async ({ page, problems }) => {
      await page.waitForSelector('[data-testid="thread-row"]');
      const security = joinedGroup.branches[0]?.thread as string;
      await waitForText(
        page,
        `[data-thread="${security}"] [data-testid="branch-tag"]`,
        `↳ security of ${joined.slice(0, 8)}`,
      );
      await page.waitForSelector(`[data-testid="thread-row"][data-thread="${waiting}"][data-status="waiting"]`);
      expect(await attributes(page, `[data-thread="${waiting}"] .status-badge`, "data-status")).toEqual(["waiting"]);

      await page.select('[data-testid="filter-status"]', "waiting");
      await page.waitForFunction(`location.search === "?status=waiting"`);
      await page.waitForFunction(
        `Array.from(document.querySelectorAll('[data-testid="thread-row"]')).every((row) => row.getAttribute("data-status") === "waiting")`,
      );
      const rows = await attributes(page, '[data-testid="thread-row"]', "data-thread");
      expect(rows).toContain(waiting);
      expect(rows).not.toContain(joined);
      expect(problems).toEqual([]);
    });
  }, 30_000);

  it("draws the branches in the family view under their step, marked apart from forks", async () => {
    const security = joinedGroup.branches[0]?.thread as string;
    // Opened from a branch: the page draws its parent's family.
    await inPage(`/threads/${security}/family`, "branches-family", async ({ page, problems }) => {
      for (const branch of joinedGroup.branches) {
        await page.waitForSelector(`.family-member[data-thread="${branch.thread}"][data-kind="branch"]`);
        await waitForText(page, `.family-member[data-thread="${branch.thread}"]`, `⇉ branch ${branch.key}`);
        await waitForText(page, `.family-member[data-thread="${branch.thread}"]`, "of step 1");
      }
      expect(await attributes(page, `.family-member[data-thread="${joined}"]`, "data-kind")).toEqual(["fork"]);
      expect(problems).toEqual([]);
    });
  }, 30_000);

  it("draws the fan-out edge through a box per branch to the join, labelled with the policy", async () => {
    await inPage(`/threads/${joined}/graph`, "branches-graph", async ({ page, problems }) => {
      await page.waitForSelector(".graph-node.branch");
      expect(await textsOf(page, ".graph-node.branch .graph-node-name")).toEqual(
        expect.arrayContaining(["security: reviewer", "speed: reviewer", "style: reviewer"]),
      );
      for (const key of KEYS) {
        expect(
          await attributes(page, `.graph-edge.fan-out[data-edge="planner->planner#0:${key}"]`, "data-count"),
        ).toEqual(["1"]);
        expect(
          await attributes(page, `.graph-edge.fan-out[data-edge="planner#0:${key}->synthesizer"]`, "data-count"),
        ).toEqual(["1"]);
      }
      expect(await textsOf(page, ".graph-edge.fan-out .graph-label-text")).toEqual(
        expect.arrayContaining(["all", "ready ×1"]),
      );
      expect(problems).toEqual([]);
    });
  }, 30_000);
});
