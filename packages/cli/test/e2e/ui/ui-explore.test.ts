import { beforeAll, expect, it } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { exploreResultSchema } from "@uwf/protocol";
import { createTempHome, FIXTURES } from "../../helpers/temp-home.ts";
import { BROWSER_TIMEOUT, describeInBrowser, useUiInBrowser, waitForText } from "../../helpers/ui-browser.ts";

/**
 * An exploration's page in a real headless Chromium: listed under Experiments, it opens as a chart of
 * pass rate against step (a point per step, a whisker per 95% interval, the decisive step marked) and a
 * table whose re-runs link to their threads. The exploration is the seeded one of explore.test.ts.
 */

describeInBrowser("uwf ui: an exploration's page", () => {
  const home = createTempHome();
  let report: string;

  beforeAll(async () => {
    const state = join(home.work, "coin");
    mkdirSync(state);
    const env = { COIN_SEED: "7", COIN_STATE: state, COIN_FIRST: "pass" };
    home.writeConfig(
      [
        "agents:",
        `  coin: { command: sh, args: ["${join(FIXTURES, "explore/coin.sh")}"] }`,
        "defaultAgent: coin",
        "",
      ].join("\n"),
    );
    const run = await home.uwf(["run", join(FIXTURES, "explore/decide.yaml"), "-p", "Decide", "--json"], { env });
    if (run.exitCode !== 0) throw new Error(run.stderr);
    const thread = (run.json() as { thread: string }).thread;
    const explored = await home.uwf(
      [
        "explore",
        thread,
        "--samples",
        "8",
        "--parallel",
        "1",
        "--assert",
        'decided=steps[role="decide"].output.verdict = "pass"',
        "--json",
      ],
      { env },
    );
    if (explored.exitCode !== 0) throw new Error(explored.stderr);
    report = exploreResultSchema.parse(explored.json()).report;
  }, 90_000);

  const { inPage } = useUiInBrowser(home);

  it(
    "draws pass rate against step with its intervals, the decisive step marked",
    async () => {
      await inPage("/experiments", "explore-page", async ({ page, problems }) => {
        const row = `.eval-reports tr[data-report="${report}"]`;
        await page.waitForSelector(row);
        await page.click(`${row} a`);
        await page.waitForFunction(`location.pathname === ${JSON.stringify(`/experiments/explore/${report}`)}`);
        await page.waitForSelector(".explore-chart circle.point");
        const points = (await page.evaluate(
          `Array.from(document.querySelectorAll(".explore-chart circle.point")).map((point) => {
            const box = point.getBoundingClientRect();
            return { step: point.getAttribute("data-step"), rate: Number(point.getAttribute("data-rate")), decisive: point.classList.contains("decisive"), width: box.width, top: box.top };
          })`,
        )) as Array<{ step: string; rate: number; decisive: boolean; width: number; top: number }>;
        expect(points.map((point) => [point.step, point.rate, point.decisive])).toEqual([
          ["1", 0.625, false],
          ["2", 0.5, true],
          ["3", 1, false],
        ]);
        // Drawn, and drawn where the rates say: the higher the rate, the higher on the page.
        for (const point of points) expect(point.width).toBeGreaterThan(4);
        const [first, second, third] = points as [(typeof points)[0], (typeof points)[0], (typeof points)[0]];
        expect(third.top).toBeLessThan(first.top);
        expect(first.top).toBeLessThan(second.top);
        const whiskers = (await page.evaluate(
          `Array.from(document.querySelectorAll(".explore-chart line.interval")).map((line) => line.getBoundingClientRect().height)`,
        )) as number[];
        expect(whiskers.length).toBe(3);
        for (const height of whiskers) expect(height).toBeGreaterThan(10);
        await waitForText(page, ".explore-decisive", "step 2");
        await waitForText(page, '.explore-steps tr[data-step="2"]', "+0.50");
        const links = (await page.evaluate(
          `Array.from(document.querySelectorAll(".explore-steps .explore-forks a")).map((link) => link.getAttribute("href"))`,
        )) as string[];
        expect(links.length).toBe(24);
        for (const href of links) expect(href).toMatch(/^\/threads\/[0-9A-Z]{26}$/);
        expect(problems).toEqual([]);
      });
    },
    BROWSER_TIMEOUT,
  );
});
