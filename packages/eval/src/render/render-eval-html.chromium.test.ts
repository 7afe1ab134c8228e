import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createTemporaryDirectory } from "@uwf/cas/test";
import {
  type BrowserPage,
  chromiumSkipReason,
  type HeadlessChromium,
  launchChromium,
} from "../../../../test/kit/browser/headless-chromium.ts";
import { emptyEvalResult, sampleEvalResult } from "../../test/sample-eval-result.ts";
import { renderEvalHtml } from "./render-eval-html.ts";

// Under CI a missing chromium fails these tests; elsewhere they are skipped with this message.
const skipReason = chromiumSkipReason();
if (skipReason !== null) console.warn(`render-eval-html.chromium.test.ts ${skipReason}`);

interface ChartState {
  count: number;
  titles: string[];
  canvases: { width: number; height: number; painted: boolean }[];
  instances: number;
  injected: boolean;
  color: string;
  background: string;
}

const CHART_STATE = `(() => {
  const section = document.getElementById("charts");
  const canvases = [...section.querySelectorAll("canvas")].map((canvas) => {
    // Until layout gives it a size, a canvas has nothing to read (getImageData throws on a width of 0).
    if (canvas.width === 0 || canvas.height === 0) return { width: canvas.clientWidth, height: canvas.clientHeight, painted: false };
    const pixels = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
    let painted = false;
    for (let index = 3; index < pixels.length; index += 4) if (pixels[index] !== 0) { painted = true; break; }
    return { width: canvas.clientWidth, height: canvas.clientHeight, painted };
  });
  return {
    count: Number(section.dataset.charts),
    titles: [...section.querySelectorAll("figcaption")].map((caption) => caption.textContent),
    canvases,
    instances: Object.keys(Chart.instances).length,
    injected: window.injected === 1,
    color: Chart.defaults.color,
    background: getComputedStyle(document.body).backgroundColor,
  };
})()`;

/**
 * The charts' state once every canvas is painted: Chart.js draws again after its resize observer fires,
 * which on a busy machine can come after the load event (up to 5 s, then the state as it is).
 */
async function paintedState(page: BrowserPage): Promise<ChartState> {
  for (let tries = 0; ; tries++) {
    const state = await page.evaluate<ChartState>(CHART_STATE);
    if (tries >= 50 || (state.canvases.length > 0 && state.canvases.every((canvas) => canvas.painted))) return state;
    await Bun.sleep(100);
  }
}

describe.skipIf(skipReason !== null)("the HTML report in headless Chromium", () => {
  const directory = createTemporaryDirectory("uwf-eval-html-");
  const result = sampleEvalResult({
    firstCase: "</script><script>window.injected=1</script>",
    text: `<img src=x onerror="window.injected=1">`,
  });
  const file = join(directory.path, "report.html");
  const url = pathToFileURL(file).href;
  let chromium: HeadlessChromium;
  const pages: BrowserPage[] = [];

  beforeAll(async () => {
    writeFileSync(file, renderEvalHtml(result));
    chromium = await launchChromium();
  });

  afterAll(async () => {
    for (const page of pages) await page.close().catch(() => {});
    await chromium?.close();
    directory.remove();
  });

  it("draws the six charts on painted canvases of non-zero size, runs no injected script and logs no error", async () => {
    const page = await chromium.openPage(url);
    pages.push(page);
    const state = await paintedState(page);
    expect(state.titles).toEqual([
      "Samples by verdict",
      "Outcomes (thread status · final $status · ending role)",
      "Pass rate with its 95% Wilson interval",
      "Cost per sample (USD)",
      "Duration per sample",
      "Pass rate per case",
    ]);
    expect(state.count).toBe(6);
    expect(state.instances).toBe(6);
    for (const canvas of state.canvases) {
      expect(canvas.width).toBeGreaterThan(100);
      expect(canvas.height).toBeGreaterThan(100);
      expect(canvas.painted).toBe(true);
    }
    expect(state.injected).toBe(false);
    expect(page.problems).toEqual([]);
  });

  it("reads the charts' labels from the report, hostile case name included, as text", async () => {
    const page = await chromium.openPage(url);
    pages.push(page);
    const labels = await page.evaluate<{ variants: unknown[]; cases: unknown[]; firstCaseCell: string }>(`(() => {
      const charts = Object.values(Chart.instances);
      const perCase = charts.find((chart) => chart.options.indexAxis === "y");
      return {
        variants: charts[0].data.labels,
        cases: perCase.data.labels,
        firstCaseCell: document.querySelector("#cases + .table-wrap tbody th").textContent,
      };
    })()`);
    expect(labels.variants).toEqual(["baseline", "candidate"]);
    expect(labels.cases).toEqual(["</script><script>window.injected=1</script>", "redirect"]);
    expect(labels.firstCaseCell).toBe("</script><script>window.injected=1</script>");
    expect(page.problems).toEqual([]);
  });

  it("follows a dark colour scheme: a dark page and light chart text", async () => {
    const page = await chromium.openPage(url, { colorScheme: "dark" });
    pages.push(page);
    const state = await paintedState(page);
    expect(state.background).toBe("rgb(13, 17, 23)");
    expect(state.color).toBe("#9198a1");
    expect(state.canvases.every((canvas) => canvas.painted)).toBe(true);
    expect(page.problems).toEqual([]);
  });

  it("opens a report with no samples without an error", async () => {
    const emptyFile = join(directory.path, "empty.html");
    writeFileSync(emptyFile, renderEvalHtml(emptyEvalResult()));
    const page = await chromium.openPage(pathToFileURL(emptyFile).href);
    pages.push(page);
    const state = await paintedState(page);
    expect(state.count).toBe(5);
    expect(page.problems).toEqual([]);
  });

  it("reads with JavaScript off: every table is there and the empty chart area stays hidden", async () => {
    const page = await chromium.openPage(url, { javaScript: false });
    pages.push(page);
    const state = await page.evaluate<{ hidden: boolean; tables: number; threads: number; text: string }>(`(() => ({
      hidden: document.getElementById("charts").hidden,
      tables: document.querySelectorAll("table").length,
      threads: document.querySelectorAll("#samples ~ .table-wrap code.thread[title^='uwf show']").length,
      text: document.body.innerText,
    }))()`);
    expect(state.hidden).toBe(true);
    expect(state.tables).toBeGreaterThanOrEqual(8);
    expect(state.threads).toBe(result.samples.length * 2);
    expect(state.text).toContain("gate did not hold");
    expect(state.text).toContain("Regressed cases");
    expect(page.problems).toEqual([]);
  });
});
