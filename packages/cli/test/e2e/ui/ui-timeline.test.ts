/**
 * A thread's timeline in the web UI: its steps as bars on one time axis (each as long as the step
 * took), a retried step marked with its attempts, a failed attempt marked where it failed, and a
 * fan-out's branches as lanes of their own. Real `uwf ui`, real headless Chromium, real store.
 *
 * Selectors: `step-timeline` (data-span-ms), `timeline-lane` (data-lane: "" for the thread, else the
 * branch key; data-thread), `timeline-bar` (data-step, data-attempts), `timeline-failed`.
 * `UWF_UPDATE_SCREENSHOTS=1` also saves the fan-out's timeline as docs/images/ui-timeline.png.
 */
import { beforeAll, expect, it } from "bun:test";
import { join, resolve } from "node:path";
import { type LogResult, stepResultSchema } from "@uwf/protocol";
import { createTempHome, FIXTURES, fixtureAgentsConfig, LINEAR } from "../../helpers/temp-home.ts";
import { describeInBrowser, useUiInBrowser } from "../../helpers/ui-browser.ts";

const TIMEOUT = 90_000;
const REVIEW = join(FIXTURES, "workflows/fan-out-review.yaml");
const SCREENSHOT = resolve(import.meta.dir, "../../../../../docs/images/ui-timeline.png");
const KEYS = ["security", "speed", "style"];
/** The planner, each reviewer branch's one reply, and the synthesizer's join. */
const AGENT = `scripted:${join(FIXTURES, "workflows/fan-out-review.scenario.yaml")}`;

/** A bar's place on its track, in pixels: where it starts and ends. */
interface BarBox {
  step: number;
  attempts: number;
  lane: string;
  left: number;
  right: number;
  trackLeft: number;
  trackRight: number;
}

const BARS = `Array.from(document.querySelectorAll('[data-testid="timeline-bar"]')).map((bar) => {
  const box = bar.getBoundingClientRect();
  const track = bar.parentElement.getBoundingClientRect();
  return {
    step: Number(bar.dataset.step),
    attempts: Number(bar.dataset.attempts),
    lane: bar.closest('[data-testid="timeline-lane"]').dataset.lane,
    left: box.left, right: box.right, trackLeft: track.left, trackRight: track.right,
  };
})`;

describeInBrowser("uwf ui: a thread's timeline", () => {
  const home = createTempHome();
  let failed: string;
  let fanned: string;

  beforeAll(async () => {
    home.writeConfig([...fixtureAgentsConfig(["retry-plan-then-fail"]), ""].join("\n"));
    const run = await home.uwf(["run", LINEAR, "-p", "Plan, then fail", "--agent", "retry-plan-then-fail", "--json"], {
      env: { COUNTER_FILE: join(home.work, "planner-calls") },
    });
    expect(run.exitCode).toBe(1);
    failed = (await home.showThread(JSON.parse(run.stdout).thread ?? "")).thread;
    const review = await home.uwf(["run", REVIEW, "-p", "Cache the user service", "--agent", AGENT, "--json"]);
    expect(review.exitCode).toBe(0);
    fanned = stepResultSchema.parse(review.json()).thread;
  }, TIMEOUT);

  const { inPage } = useUiInBrowser(home, { timeoutMs: TIMEOUT });

  it(
    "draws a failed thread's steps as bars, the retried one marked with its attempts, the failed attempt where it failed",
    async () => {
      const log = (await home.uwf(["log", failed, "--json"])).json<LogResult>();
      expect(log.steps.map((step) => [step.role, step.attempts])).toEqual([["planner", 2]]);
      expect(log.failed?.length).toBe(1);
      await inPage(`/threads/${failed}`, "timeline-failed", async ({ page, problems }) => {
        await page.waitForSelector('[data-testid="timeline-bar"][data-step="1"][data-attempts="2"]', {
          timeout: 10_000,
        });
        expect(await page.$$eval('[data-testid="timeline-failed"]', (marks) => marks.length)).toBe(1);
        expect(
          await page.$eval('[data-testid="timeline-bar"]', (bar) => bar.getAttribute("aria-label") ?? ""),
        ).toContain("2 attempts");
        const bars = (await page.evaluate(BARS)) as BarBox[];
        expect(bars).toHaveLength(1);
        const [bar] = bars as [BarBox];
        expect(bar.left).toBeGreaterThanOrEqual(bar.trackLeft - 0.5);
        expect(bar.right).toBeLessThanOrEqual(bar.trackRight + 0.5);
        // The failure came after the step: its mark stands right of the bar's start.
        const failedLeft = (await page.$eval(
          '[data-testid="timeline-failed"]',
          (mark) => mark.getBoundingClientRect().left,
        )) as number;
        expect(failedLeft).toBeGreaterThan(bar.left);
        // The bar opens its step.
        await page.click('[data-testid="timeline-bar"]');
        await page.waitForSelector(`[data-testid="step-page"][data-address="${log.steps[0]?.address}"]`, {
          timeout: 10_000,
        });
        expect(problems).toEqual([]);
      });
    },
    TIMEOUT,
  );

  it(
    "puts each branch of a fan-out in a lane of its own, between the fan-out and the join in time",
    async () => {
      const log = (await home.uwf(["log", fanned, "--json"])).json<LogResult>();
      await inPage(`/threads/${fanned}`, "timeline-lanes", async ({ page, problems }) => {
        await page.waitForFunction(
          `document.querySelectorAll('[data-testid="timeline-lane"]').length === ${1 + KEYS.length} && document.querySelectorAll('[data-testid="timeline-bar"]').length === ${log.steps.length + KEYS.length}`,
          { timeout: 10_000 },
        );
        const lanes = await page.$$eval('[data-testid="timeline-lane"]', (found) =>
          found.map((lane) => lane.getAttribute("data-lane")),
        );
        expect(lanes).toEqual(["", ...KEYS]);
        const bars = (await page.evaluate(BARS)) as BarBox[];
        const own = bars.filter((bar) => bar.lane === "");
        expect(own.map((bar) => bar.step)).toEqual(log.steps.map((step) => step.number));
        const [fanOut, joinStep] = own as [BarBox, BarBox];
        for (const key of KEYS) {
          const lane = bars.filter((bar) => bar.lane === key);
          // A role branch's lane holds its own reply only, not the planner's step it shares with its parent.
          expect(lane).toHaveLength(1);
          const [reply] = lane as [BarBox];
          expect(reply.left).toBeGreaterThanOrEqual(fanOut.left);
          expect(reply.left).toBeLessThanOrEqual(joinStep.left + 1);
        }
        if (process.env.UWF_UPDATE_SCREENSHOTS === "1") {
          const panel = await page.$('[data-testid="step-timeline"]');
          await panel?.screenshot({ path: SCREENSHOT as `${string}.png` });
        }
        expect(problems).toEqual([]);
      });
    },
    TIMEOUT,
  );
});
