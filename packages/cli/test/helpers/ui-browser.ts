/**
 * The web UI as its users meet it: the real `uwf ui` process on a temp home, and pages opened in a real
 * headless Chromium (Debian's `chromium`) driven by puppeteer-core. Every page records what it reported
 * as wrong (console errors, uncaught exceptions, failed requests), and a failed check saves a screenshot.
 */
import { afterAll, afterEach, beforeAll, describe } from "bun:test";
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { chromiumSkipReason, findChromium } from "../../../../test/kit/browser/headless-chromium.ts";
import { currentWhileTestRuns, type TempHome } from "./temp-home.ts";

/** Why a browser test is skipped here (null: Chromium is installed, or CI requires it). */
export { chromiumSkipReason };

/** A describe block of browser tests: skipped where there is no Chromium (see chromiumSkipReason). */
export const describeInBrowser = describe.skipIf(chromiumSkipReason() !== null);

/** How long a browser test, and each hook that starts or stops its `uwf ui` and Chromium, may take unless it says otherwise. */
export const BROWSER_TIMEOUT = 60_000;

export interface RunningUi {
  /** The printed URL, with the session token: opening it sets the session cookie. */
  url: string;
  /** `http://127.0.0.1:PORT`, no path. */
  origin: string;
  process: ReturnType<typeof Bun.spawn>;
  /** Everything the server printed on stderr so far. */
  stderr(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number>;
}

/** Starts `uwf ui --port 0 ARGS…` in the home and waits for the URL it prints. */
export async function startUi(home: TempHome, args: readonly string[] = []): Promise<RunningUi> {
  const child = home.spawn(["ui", "--port", "0", ...args]);
  let stderr = "";
  void (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stderr as ReadableStream<Uint8Array>) stderr += decoder.decode(chunk);
  })();
  const reader = (child.stdout as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let stdout = "";
  const deadline = Date.now() + 20_000;
  for (;;) {
    const found = /https?:\/\/\S+/.exec(stdout);
    if (found !== null) {
      reader.releaseLock();
      const url = found[0];
      return {
        url,
        origin: new URL(url).origin,
        process: child,
        stderr: () => stderr,
        async stop() {
          child.kill("SIGTERM");
          return await child.exited;
        },
      };
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`uwf ui printed no URL within 20 s; stdout: ${stdout}; stderr: ${stderr}`);
    }
    const { value, done } = await reader.read();
    if (done) throw new Error(`uwf ui exited (${await child.exited}) before printing a URL: ${stderr}`);
    stdout += decoder.decode(value);
  }
}

/** Launches the headless Chromium the tests drive (throws when it is not installed: skip with chromiumSkipReason). */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = findChromium();
  if (executablePath === null) throw new Error("chromium is not installed (apt-get install chromium)");
  return puppeteer.launch({
    executablePath,
    headless: true,
    args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"],
  });
}

export interface CheckedPage {
  page: Page;
  /** Console errors, uncaught exceptions and failed requests, since the page was opened. */
  problems: string[];
}

/** A new tab that records its problems, at `url`, once the page's network is quiet. */
export async function openPage(browser: Browser, url: string): Promise<CheckedPage> {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`exception: ${(error as Error).message}`));
  page.on("requestfailed", (request) => {
    // An EventSource closed by navigation is not a failure of the page, nor a fetch the page cancelled
    // itself because the view that asked for it went away (ERR_ABORTED; a server's failure reads otherwise).
    if (request.url().includes("/api/events")) return;
    if (request.failure()?.errorText === "net::ERR_ABORTED") return;
    problems.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ""}`);
  });
  await page.goto(url, { waitUntil: "networkidle2" });
  return { page, problems };
}

/** Where failed checks leave their screenshots: `UWF_TEST_ARTIFACTS`, else the temp dir. */
export function screenshotDirectory(): string {
  const directory = process.env.UWF_TEST_ARTIFACTS ?? join(tmpdir(), "uwf-ui-screenshots");
  mkdirSync(directory, { recursive: true });
  return directory;
}

/**
 * Runs `check` on the page; when it throws, saves a full-page screenshot named after `name` and
 * rethrows with the screenshot's path added to the message.
 */
export async function withScreenshotOnFailure<T>(page: Page, name: string, check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (error) {
    const path = join(screenshotDirectory(), `${name.replace(/[^a-z0-9-]+/gi, "-")}-${Date.now()}.png`);
    try {
      await page.screenshot({ path: path as `${string}.png`, fullPage: true });
    } catch {
      // The page may be gone; the original error matters more.
    }
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`${message}\n(screenshot: ${path})`);
  }
}

/**
 * Opens `url` in a new tab (openPage), runs `check` on it with a screenshot on failure named `name`
 * (withScreenshotOnFailure), and closes the tab.
 */
export async function checkPage<T>(
  browser: Browser,
  url: string,
  name: string,
  check: (checked: CheckedPage) => Promise<T>,
): Promise<T> {
  const checked = await openPage(browser, url);
  try {
    return await withScreenshotOnFailure(checked.page, name, () => check(checked));
  } finally {
    await checked.page.close().catch(() => {});
  }
}

/** The thread of each row of the Threads table (`thread-row`'s `data-thread`), top to bottom. */
export async function rowThreads(page: Page): Promise<string[]> {
  return page.$$eval('[data-testid="thread-row"]', (rows) => rows.map((row) => row.getAttribute("data-thread") ?? ""));
}

/** The text of each element `selector` matches, trimmed, in document order. */
export async function textsOf(page: Page, selector: string): Promise<string[]> {
  // A string, evaluated in the page: the tests' TypeScript has no DOM types.
  return (await page.evaluate(
    `Array.from(document.querySelectorAll(${JSON.stringify(selector)})).map((element) => (element.textContent ?? "").trim())`,
  )) as string[];
}

/** Waits until `selector` is on the page and its text contains `text`. */
export async function waitForText(page: Page, selector: string, text: string, timeout = 10_000): Promise<void> {
  // A string, evaluated in the page: the tests' TypeScript has no DOM types.
  const expression = `Array.from(document.querySelectorAll(${JSON.stringify(selector)})).some((element) => (element.textContent ?? "").includes(${JSON.stringify(text)}))`;
  await page.waitForFunction(expression, { timeout });
}

export interface UseUiInBrowserOptions {
  /** Open the printed URL (with the token) first, so the browser holds the session cookie that actions need whichever test runs first. */
  signIn?: boolean;
  /** The hooks' timeout; default BROWSER_TIMEOUT. */
  timeoutMs?: number;
  /** More `uwf ui` arguments, after `--port 0` (e.g. `--read-only`). */
  args?: readonly string[];
}

/** What useUiInBrowser gives a describe block: the running ui and browser, and pages of the one opened in the other. */
export interface UiInBrowser {
  ui: RunningUi;
  browser: Browser;
  /**
   * Opens a page of the ui: a path (`/threads/ID`) or a whole URL (`ui.url`, to sign in). The tab is
   * closed after the test; for checks under more than one screenshot name (see inPage for one).
   */
  open(path: string): Promise<CheckedPage>;
  /** Opens a page of the ui as `open` does, runs `check` on it with a screenshot on failure named `name`, and closes it. */
  inPage<T>(path: string, name: string, check: (checked: CheckedPage) => Promise<T>): Promise<T>;
  /**
   * Starts another `uwf ui ARGS…` on the same home (`--read-only`, say), runs `check` on its page at `path`
   * as inPage does (given that ui too, for more of its pages), and stops it.
   */
  inOtherUi<T>(
    args: readonly string[],
    path: string,
    name: string,
    check: (checked: CheckedPage, other: RunningUi) => Promise<T>,
  ): Promise<T>;
}

/**
 * One `uwf ui` on `home` and one headless Chromium for a describe block: started in a beforeAll that runs
 * after the block's own (register this after them, so the store they fill is what the ui serves), and
 * stopped, with the home removed, after its tests. `ui` and `browser` stand for the running ones.
 * `home` may be a function, for a home the block's own beforeAll makes (it is called in the hooks).
 */
export function useUiInBrowser(
  home: TempHome | (() => TempHome | undefined),
  options: UseUiInBrowserOptions = {},
): UiInBrowser {
  const timeout = options.timeoutMs ?? BROWSER_TIMEOUT;
  const currentHome = typeof home === "function" ? home : () => home;
  let started: { ui: RunningUi; browser: Browser } | undefined;
  beforeAll(async () => {
    const startedHome = currentHome();
    if (startedHome === undefined)
      throw new Error("useUiInBrowser: no home (register it after the beforeAll that makes it)");
    const ui = await startUi(startedHome, options.args);
    started = { ui, browser: await launchBrowser() };
    if (options.signIn === true) {
      const { page } = await openPage(started.browser, ui.url);
      await page.close();
    }
  }, timeout);
  const opened: Page[] = [];
  afterEach(async () => {
    for (const page of opened.splice(0)) await page.close().catch(() => {});
  });
  afterAll(async () => {
    await started?.browser.close();
    await started?.ui.stop();
    currentHome()?.cleanup();
  }, timeout);
  const ui = currentWhileTestRuns(() => started?.ui, "the ui");
  const browser = currentWhileTestRuns(() => started?.browser, "the browser");
  const urlOf = (path: string) => new URL(path, ui.origin).href;
  return {
    ui,
    browser,
    async open(path) {
      const checked = await openPage(browser, urlOf(path));
      opened.push(checked.page);
      return checked;
    },
    inPage: (path, name, check) => checkPage(browser, urlOf(path), name, check),
    async inOtherUi(args, path, name, check) {
      const sameHome = currentHome();
      if (sameHome === undefined) throw new Error("useUiInBrowser: no home for another ui");
      const other = await startUi(sameHome, args);
      try {
        return await checkPage(browser, new URL(path, other.origin).href, name, (checked) => check(checked, other));
      } finally {
        await other.stop();
      }
    },
  };
}

/** An accessibility violation axe-core found: its rule, impact and where (up to 5 selectors). */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

let axeSource: string | undefined;

/**
 * Runs axe-core (the dev dependency, pinned) on the page as it stands and returns its serious and
 * critical violations. axe is evaluated through the DevTools protocol, so the page's CSP stays as served.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  axeSource ??= await Bun.file(join(dirname(require.resolve("axe-core")), "axe.min.js")).text();
  if ((await page.evaluate("typeof window.axe")) === "undefined") await page.evaluate(axeSource);
  return (await page.evaluate(`axe.run(document).then((results) => results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.slice(0, 5).map((node) => node.target.join(" ") + " " + (node.failureSummary ?? "").split("\\n").slice(1, 2).join("")),
    })))`)) as AxeViolation[];
}
