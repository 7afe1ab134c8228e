/**
 * Issue 30's API benchmark: the compiled `uwf ui` serving the 100,000-thread store, timed as a page
 * fetches it over HTTP on 127.0.0.1: the thread list's first page (what `/` loads), and a 1,000-step
 * thread's page data (its record and its steps, fetched together as the thread page does). Issue 46:
 * the list's first paint in headless Chromium (when Debian's `chromium` is installed) and the page's
 * weight (its scripts and styles as served, gzipped).
 */

import { launchBrowser } from "../../packages/cli/test/helpers/ui-browser.ts";
import { findChromium } from "../../test/kit/browser/headless-chromium.ts";
import { round, type Summary, summarize } from "./measure.ts";

export interface UiApiPlan {
  runs: number;
  warmup: number;
}

export interface UiApiResult {
  threads: number;
  /** GET /api/threads?limit=30. */
  listPage: Summary;
  /** GET /api/threads/T and /api/threads/T/log at once, for the thread of `threadSteps` steps. */
  threadPage: Summary;
  /** Issue 46: GET /api/threads?q=PREFIX&limit=30, PREFIX the first 6 characters of a thread id (the store's own index of ids). */
  searchPage?: Summary;
  threadSteps: number;
  /** From spawning `uwf ui` to its URL on stdout. */
  startMs: number;
  /**
   * `/` opened in headless Chromium: from the navigation's start to the frame after the first thread row
   * is in the page (the page, its bundle and the list's first page fetched and drawn); null without Chromium.
   */
  firstPaint: Summary | null;
  /** The page's scripts and styles as `uwf ui` serves them, gzipped. */
  pageWeightGzipBytes: number;
}

const LIST_TARGET_MS = 50;
const THREAD_TARGET_MS = 100;
const FIRST_PAINT_TARGET_MS = 300;
const PAGE_WEIGHT_TARGET_BYTES = 250 * 1024;

export async function measureUiApi(options: {
  binary: string;
  cwd: string;
  env: Record<string, string | undefined>;
  threads: number;
  thread: { id: string; steps: number };
  plan: UiApiPlan;
}): Promise<UiApiResult> {
  const started = performance.now();
  const child = Bun.spawn([options.binary, "ui", "--port", "0", "--read-only"], {
    cwd: options.cwd,
    env: options.env,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  try {
    const origin = await readOrigin(child.stdout);
    const startMs = round(performance.now() - started);
    const listPath = `${origin}/api/threads?limit=30`;
    const threadPaths = [
      `${origin}/api/threads/${options.thread.id}`,
      `${origin}/api/threads/${options.thread.id}/log`,
    ];
    const searchPath = `${origin}/api/threads?q=${options.thread.id.slice(0, 6)}&limit=30`;
    const list: number[] = [];
    const thread: number[] = [];
    const search: number[] = [];
    for (let run = 0; run < options.plan.warmup + options.plan.runs; run++) {
      const listMs = await timeFetches([listPath]);
      const threadMs = await timeFetches(threadPaths);
      const searchMs = await timeFetches([searchPath]);
      if (run < options.plan.warmup) continue;
      list.push(listMs);
      thread.push(threadMs);
      search.push(searchMs);
    }
    return {
      threads: options.threads,
      listPage: summarize(list),
      threadPage: summarize(thread),
      searchPage: summarize(search),
      threadSteps: options.thread.steps,
      startMs,
      firstPaint: findChromium() === null ? null : await measureFirstPaint(origin, options.plan),
      pageWeightGzipBytes: await measurePageWeight(origin),
    };
  } finally {
    child.kill("SIGTERM");
    await child.exited;
  }
}

/** Records, in the page, when the first thread row was drawn: the frame after it joined the document. */
const FIRST_ROW_PROBE = `new MutationObserver((_, observer) => {
  if (document.querySelector('[data-testid="thread-row"]') === null) return;
  observer.disconnect();
  requestAnimationFrame(() => { window.__firstRowMs = performance.now(); });
}).observe(document, { childList: true, subtree: true });`;

async function measureFirstPaint(origin: string, plan: UiApiPlan): Promise<Summary> {
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    await page.evaluateOnNewDocument(FIRST_ROW_PROBE);
    const times: number[] = [];
    for (let run = 0; run < plan.warmup + plan.runs; run++) {
      await page.goto(`${origin}/`, { waitUntil: "domcontentloaded" });
      await page.waitForFunction("window.__firstRowMs !== undefined", { timeout: 30_000 });
      const ms = (await page.evaluate("window.__firstRowMs")) as number;
      if (run >= plan.warmup) times.push(ms);
    }
    return summarize(times);
  } finally {
    await browser.close();
  }
}

/** The gzipped size of every script and style the page links, fetched as a browser would. */
export async function measurePageWeight(origin: string): Promise<number> {
  const html = await (await fetch(`${origin}/`)).text();
  const assets = [...html.matchAll(/(?:src|href)="([^"]+\.(?:js|css))"/g)].map((match) => match[1] as string);
  let total = 0;
  for (const asset of assets) {
    const response = await fetch(new URL(asset, `${origin}/`));
    if (!response.ok) throw new Error(`GET ${asset}: ${response.status}`);
    total += Bun.gzipSync(new Uint8Array(await response.arrayBuffer())).length;
  }
  return total;
}

/** The wall time of fetching every path at once and reading each body whole; a failed request fails the benchmark. */
async function timeFetches(paths: readonly string[]): Promise<number> {
  const started = performance.now();
  await Promise.all(
    paths.map(async (path) => {
      const response = await fetch(path);
      const body = await response.text();
      if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${body.slice(0, 300)}`);
    }),
  );
  return performance.now() - started;
}

async function readOrigin(stdout: ReadableStream<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of stdout) {
    text += decoder.decode(chunk);
    const found = /https?:\/\/[^\s/]+/.exec(text);
    if (found !== null) return found[0];
  }
  throw new Error(`uwf ui exited without printing its URL: ${text}`);
}

/**
 * Issue 30: a page of the thread list in ≤ 50 ms and a 1,000-step thread's page data in ≤ 100 ms (medians);
 * issue 46: the list's first paint in ≤ 300 ms (median) and the page's scripts and styles ≤ 250 KB gzipped.
 */
export function checkUiApiTargets(result: UiApiResult): { target: string; measured: string; met: boolean }[] {
  return [
    {
      target: `ui: thread-list page (${result.threads.toLocaleString("en-US")} threads) ≤ ${LIST_TARGET_MS} ms`,
      measured: `${result.listPage.medianMs} ms median`,
      met: result.listPage.medianMs <= LIST_TARGET_MS,
    },
    {
      target: `ui: ${result.threadSteps.toLocaleString("en-US")}-step thread's page data ≤ ${THREAD_TARGET_MS} ms`,
      measured: `${result.threadPage.medianMs} ms median`,
      met: result.threadPage.medianMs <= THREAD_TARGET_MS,
    },
    ...(result.searchPage === undefined
      ? []
      : [
          {
            target: `ui: search page, GET /api/threads?q= (${result.threads.toLocaleString("en-US")} threads) ≤ ${LIST_TARGET_MS} ms`,
            measured: `${result.searchPage.medianMs} ms median`,
            met: result.searchPage.medianMs <= LIST_TARGET_MS,
          },
        ]),
    ...(result.firstPaint === null
      ? []
      : [
          {
            target: `ui: the list's first paint (${result.threads.toLocaleString("en-US")} threads, Chromium) ≤ ${FIRST_PAINT_TARGET_MS} ms`,
            measured: `${result.firstPaint.medianMs} ms median`,
            met: result.firstPaint.medianMs <= FIRST_PAINT_TARGET_MS,
          },
        ]),
    {
      target: "ui: the page's scripts and styles ≤ 250 KB gzipped",
      measured: `${round(result.pageWeightGzipBytes / 1024)} KB`,
      met: result.pageWeightGzipBytes <= PAGE_WEIGHT_TARGET_BYTES,
    },
  ];
}
