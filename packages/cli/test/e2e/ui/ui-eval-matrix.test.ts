/**
 * An eval report as a cases × variants matrix in the web UI: each cell's samples with their verdict,
 * outcome and final reply (expandable), a failures-only filter, a report whose gate did not hold shown
 * with its verdict, and two reports side by side as `uwf eval diff` compares them. Real `uwf ui`, real
 * headless Chromium, reports made by the real `uwf eval` (the e2e suite: 2 cases × 2 variants).
 *
 * Selectors: `eval-matrix` (data-report), `matrix-row` (data-case), `matrix-cell` (data-variant),
 * `matrix-sample` (data-verdict), `final-reply`, `final-reply-body`, `failures-only`, `compare-with`,
 * `eval-diff-page`, `eval-diff`, `case-regressed`, `side-baseline`, `side-current`.
 * `UWF_UPDATE_SCREENSHOTS=1` also saves docs/images/ui-eval-matrix.png and ui-eval-diff.png.
 */
import { beforeAll, expect, it } from "bun:test";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { type EvalDiffResult, type EvalResult, evalResultSchema } from "@uwf/protocol";
import type { Page } from "puppeteer-core";
import { createTempHome, FIXTURES } from "../../helpers/temp-home.ts";
import { describeInBrowser, useUiInBrowser, waitForText } from "../../helpers/ui-browser.ts";
import { uwfExiting } from "../../helpers/uwf-exiting.ts";

const TIMEOUT = 120_000;
const IMAGES = resolve(import.meta.dir, "../../../../../docs/images");

function cells(page: Page): Promise<{ testCase: string; variant: string; verdicts: string[] }[]> {
  return page.evaluate(`Array.from(document.querySelectorAll('[data-testid="eval-matrix"] [data-testid="matrix-cell"]')).map((cell) => ({
    testCase: cell.closest('[data-testid="matrix-row"]').dataset.case,
    variant: cell.dataset.variant,
    verdicts: Array.from(cell.querySelectorAll('[data-testid="matrix-sample"]')).map((sample) => sample.dataset.verdict),
  }))`) as Promise<{ testCase: string; variant: string; verdicts: string[] }[]>;
}

describeInBrowser("uwf ui: an eval report as a matrix", () => {
  const home = createTempHome();
  /** The suite's report: careful passes, hasty is rejected and fails `approved`. */
  let suite: EvalResult;
  /** Rescored with one assertion every sample passes. */
  let allPass: string;
  /** Rescored with `outcome: approved` and a gate of 90%: the gate does not hold (exit 3). */
  let gated: EvalResult;

  async function evalJson(args: string[], exitCode: number): Promise<EvalResult> {
    return evalResultSchema.parse((await uwfExiting(home, [...args, "--json"], exitCode)).json());
  }

  beforeAll(async () => {
    cpSync(join(FIXTURES, "eval"), join(home.work, "eval"), { recursive: true });
    const file = join(home.work, "eval", "suite.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace(/^repeat: \d+$/m, "repeat: 1"));
    home.writeConfig(
      ["agents:", `  judge-sh: { command: sh, args: ["${join(home.work, "eval", "judge.sh")}"] }`, ""].join("\n"),
    );
    suite = await evalJson(["eval", "--suite", file], 0);
    allPass = (await evalJson(["eval", "rescore", suite.report, "--replace", "--assert", "short=$count(steps) < 3"], 0))
      .report;
    gated = await evalJson(
      ["eval", "rescore", suite.report, "--replace", "--assert", "ok=outcome: approved", "--min-pass-rate", "0.9"],
      3,
    );
  }, TIMEOUT);

  const { inPage } = useUiInBrowser(home, { timeoutMs: TIMEOUT });

  it(
    "lays the samples out as cases × variants, filters the failures, and opens a sample's final reply",
    async () => {
      await inPage(`/experiments/${suite.report}`, "eval-matrix", async ({ page, problems }) => {
        await page.waitForSelector(`[data-testid="eval-matrix"][data-report="${suite.report}"]`, { timeout: 10_000 });
        const expected = suite.samples.map((sample) => ({
          testCase: sample.case ?? "",
          variant: sample.variant ?? "",
          verdicts: [sample.verdict],
        }));
        const sortKey = (cell: { testCase: string; variant: string }) => `${cell.testCase}/${cell.variant}`;
        const sorted = <T extends { testCase: string; variant: string }>(list: T[]) =>
          [...list].sort((left, right) => sortKey(left).localeCompare(sortKey(right)));
        expect(sorted(await cells(page))).toEqual(sorted(expected));
        expect(await page.$$eval('[data-testid="matrix-row"]', (rows) => rows.length)).toBe(2);
        const failing = suite.samples.filter((sample) => sample.verdict !== "passed");
        expect(failing.length).toBeGreaterThan(0);
        expect(failing.length).toBeLessThan(suite.samples.length);

        // A sample's final reply: the fields the report kept and the body of its head step.
        const hasty = suite.samples.find((sample) => sample.variant === "hasty") as EvalResult["samples"][number];
        const summary = `[data-testid="matrix-row"][data-case="${hasty.case}"] [data-testid="matrix-cell"][data-variant="hasty"] [data-testid="final-reply"] summary`;
        await page.click(summary);
        await page.waitForSelector('[data-testid="final-reply-body"] .markdown-body', { timeout: 10_000 });
        await waitForText(page, '[data-testid="final-reply-body"]', String(hasty.final.severity));
        if (process.env.UWF_UPDATE_SCREENSHOTS === "1") {
          const matrix = await page.$('[data-testid="eval-matrix"]');
          await matrix?.screenshot({ path: join(IMAGES, "ui-eval-matrix.png") as `${string}.png` });
        }

        // Failures only: the passing samples go.
        await page.click('[data-testid="failures-only"]');
        await page.waitForFunction(
          `document.querySelectorAll('[data-testid="matrix-sample"]').length === ${failing.length}`,
          { timeout: 10_000 },
        );
        expect((await cells(page)).flatMap((cell) => cell.verdicts)).toEqual(failing.map((sample) => sample.verdict));
        expect(problems).toEqual([]);
      });
    },
    TIMEOUT,
  );

  it(
    "shows a report whose gate did not hold with its verdict, and two reports side by side as eval diff compares them",
    async () => {
      expect(gated.gateHeld).toBe(false);
      await inPage(`/experiments/${gated.report}`, "eval-diff", async ({ page, problems }) => {
        await page.waitForSelector('.eval-gate[data-gate="broke"]', { timeout: 10_000 });
        await waitForText(page, ".eval-gate", "Gate did not hold");
        await waitForText(page, ".eval-gate", "min-pass-rate");

        // Compare with the report every sample passed: it is the baseline, this one the current.
        await page.waitForSelector(`[data-testid="compare-with"] option[value="${allPass}"]`);
        await page.select('[data-testid="compare-with"]', allPass);
        await page.waitForSelector('[data-testid="eval-diff-page"]', { timeout: 10_000 });
        expect(new URL(page.url()).pathname).toBe(`/experiments/diff/${allPass}/${gated.report}`);
        const diff = (await home.uwf(["eval", "diff", allPass, gated.report, "--json"])).json<EvalDiffResult>();
        const regressed = diff.comparisons.flatMap((comparison) => comparison.regressed.map((change) => change.case));
        expect(regressed.length).toBeGreaterThan(0);
        await page.waitForSelector('[data-testid="eval-diff"]');
        expect(
          await page.$$eval('[data-testid="case-regressed"]', (items) =>
            items.map((item) => item.getAttribute("data-case")),
          ),
        ).toEqual(regressed);
        // Each side has its gate and its matrix, for its own report.
        expect(
          await page.$eval('[data-testid="side-baseline"] [data-testid="eval-matrix"]', (table) =>
            table.getAttribute("data-report"),
          ),
        ).toBe(allPass);
        expect(
          await page.$eval('[data-testid="side-current"] [data-testid="eval-matrix"]', (table) =>
            table.getAttribute("data-report"),
          ),
        ).toBe(gated.report);
        expect(
          await page.$eval('[data-testid="side-current"] .eval-gate', (gate) => gate.getAttribute("data-gate")),
        ).toBe("broke");
        if (process.env.UWF_UPDATE_SCREENSHOTS === "1") {
          await page.screenshot({ path: join(IMAGES, "ui-eval-diff.png") as `${string}.png` });
        }
        // Failures only, on both sides: the baseline has none left.
        await page.click('[data-testid="failures-only"]');
        await page.waitForSelector('[data-testid="side-baseline"] [data-testid="matrix-empty"]', { timeout: 10_000 });
        expect(
          await page.$$eval('[data-testid="side-current"] [data-testid="matrix-sample"]', (samples) =>
            samples.map((sample) => sample.getAttribute("data-verdict")),
          ),
        ).toEqual(gated.samples.filter((sample) => sample.verdict !== "passed").map((sample) => sample.verdict));
        expect(problems).toEqual([]);
      });
    },
    TIMEOUT,
  );
});
