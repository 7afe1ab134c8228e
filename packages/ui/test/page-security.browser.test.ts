import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import puppeteer, { type Browser } from "puppeteer-core";
import { chromiumSkipReason, findChromium } from "../../../test/kit/browser/headless-chromium.ts";
import { readFirstLine } from "../../../test/kit/process/read-first-line.ts";

/**
 * The page under `uwf ui`'s Content-Security-Policy in real headless Chromium: it loads and runs with no
 * console error and no CSP refusal, the token moves from the URL into the cookie, an action from the
 * page is taken, and the same action from another origin's page (another port of localhost: same
 * site, so the cookie goes along) is refused by the Origin check.
 */

const ROOT = resolve(import.meta.dir, "../../..");
const UWF = [process.execPath, join(ROOT, "packages/cli/src/bin.ts")];
const FIXTURES = join(ROOT, "packages/cli/test/fixtures/workflows");
const skip = chromiumSkipReason();

let root: string;
let env: Record<string, string>;
let ui: ReturnType<typeof Bun.spawn> | undefined;
let browser: Browser | undefined;

function uwf(args: string[]): string {
  const run = Bun.spawnSync([...UWF, ...args], { env, cwd: root, stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`uwf ${args.join(" ")} exited ${run.exitCode}: ${run.stderr.toString()}`);
  return run.stdout.toString();
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "uwf-ui-browser-"));
  env = { ...(process.env as Record<string, string>), UWF_HOME: join(root, "home"), HOME: root, NO_COLOR: "1" };
});

afterAll(async () => {
  await browser?.close();
  if (ui !== undefined && ui.exitCode === null) {
    ui.kill("SIGTERM");
    await ui.exited;
  }
  rmSync(root, { recursive: true, force: true });
});

describe.skipIf(skip !== null)("the page in headless Chromium", () => {
  it("runs under the CSP with no console error; its actions work, another origin's are refused", async () => {
    const thread = (
      JSON.parse(uwf(["start", join(FIXTURES, "linear.yaml"), "-p", "Write hello.txt", "--json"])) as { thread: string }
    ).thread;
    ui = Bun.spawn([...UWF, "ui", "--port", "0"], { env, cwd: root, stdout: "pipe", stderr: "pipe" });
    const url = (/^uwf ui: (\S+)$/.exec(await readFirstLine(ui.stdout as ReadableStream<Uint8Array>)) ??
      [])[1] as string;
    const origin = new URL(url).origin;

    browser = await puppeteer.launch({
      executablePath: findChromium() as string,
      headless: true,
      args: ["--no-sandbox"],
    });
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" || message.type() === "warn")
        problems.push(`${message.type()}: ${message.text()}`);
    });
    page.on("pageerror", (error) => problems.push(`exception: ${String(error)}`));
    page.on("requestfailed", (request) => problems.push(`failed: ${request.url()}`));
    page.on("response", (answer) => {
      if (answer.status() >= 400) problems.push(`${answer.status()}: ${answer.url()}`);
    });
    // Page code as text: this file is typed for Bun, not the DOM.
    await page.evaluateOnNewDocument(
      'document.addEventListener("securitypolicyviolation", (event) => console.error("CSP refused " + event.blockedURI + " (" + event.violatedDirective + ")"))',
    );

    // Not networkidle0: the page keeps its event stream open.
    const response = await page.goto(url, { waitUntil: "networkidle2" });
    // The token went into the cookie and out of the address bar.
    expect(page.url()).toBe(`${origin}/`);
    expect(response?.headers()["content-security-policy"]).toContain("script-src 'self'");
    const cookies = await browser.cookies();
    expect(cookies.find((cookie) => cookie.name.startsWith("uwf-ui-"))).toMatchObject({
      httpOnly: true,
      sameSite: "Strict",
    });
    // The app ran: the bundle drew into #app.
    await page.waitForFunction('(document.querySelector("#app")?.childElementCount ?? 0) > 0', { timeout: 10_000 });
    expect(await page.evaluate("document.cookie")).toBe("");

    // An action from the page: the cookie and this server's Origin.
    const fromPage = await page.evaluate(
      (id) => fetch(`/api/threads/${id}/queue`, { method: "POST" }).then((answer) => answer.status),
      thread,
    );
    expect(fromPage).toBe(200);

    // Another server on localhost, another port: same site, so the cookie goes along; its Origin does not pass.
    const evil = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () =>
        new Response("<!doctype html><title>elsewhere</title>", { headers: { "content-type": "text/html" } }),
    });
    try {
      const other = await browser.newPage();
      await other.goto(`http://127.0.0.1:${evil.port}/`);
      const fromElsewhere = await other.evaluate(
        (target, id) =>
          fetch(`${target}/api/threads/${id}/cancel`, { method: "POST", credentials: "include", mode: "no-cors" })
            .then((answer) => answer.type)
            .catch((error: unknown) => String(error)),
        origin,
        thread,
      );
      // The browser sends it (its answer is then withheld: Cross-Origin-Resource-Policy); the server refused it.
      expect(["opaque", "TypeError: Failed to fetch"]).toContain(fromElsewhere);
      await other.close();
    } finally {
      await evil.stop(true);
    }
    const shown = JSON.parse(uwf(["show", thread, "--json"])) as { status: string; queued?: boolean };
    expect(shown).toMatchObject({ status: "active", queued: true });
    expect(problems).toEqual([]);

    ui.kill("SIGINT");
    expect(await ui.exited).toBe(130);
  }, 120_000);
});
