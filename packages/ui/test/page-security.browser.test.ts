import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { chromiumSkipReason, findChromium } from "../../../test/kit/browser/headless-chromium.ts";
import { readFirstLine } from "../../../test/kit/process/read-first-line.ts";
import { writeWorkflow } from "../../../test/kit/workflow/write-workflow.ts";

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

/** `uwf ui` on a free port in this test's home: the process, the URL it printed (with its token) and its origin. */
async function startUi(): Promise<{ server: ReturnType<typeof Bun.spawn>; url: string; origin: string }> {
  const server = Bun.spawn([...UWF, "ui", "--port", "0"], { env, cwd: root, stdout: "pipe", stderr: "pipe" });
  const url = (/^uwf ui: (\S+)$/.exec(await readFirstLine(server.stdout as ReadableStream<Uint8Array>)) ??
    [])[1] as string;
  return { server, url, origin: new URL(url).origin };
}

function launchBrowser(): Promise<Browser> {
  return puppeteer.launch({ executablePath: findChromium() as string, headless: true, args: ["--no-sandbox"] });
}

/**
 * A new tab whose console errors and warnings, uncaught exceptions and CSP refusals land in `problems`
 * (the caller adds what else it counts as one).
 */
async function openWatchedPage(on: Browser): Promise<{ page: Page; problems: string[] }> {
  const page = await on.newPage();
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warn") problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`exception: ${String(error)}`));
  // Page code as text: this file is typed for Bun, not the DOM.
  await page.evaluateOnNewDocument(
    'document.addEventListener("securitypolicyviolation", (event) => console.error("CSP refused " + event.blockedURI + " (" + event.violatedDirective + ")"))',
  );
  return { page, problems };
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
    const started = await startUi();
    ui = started.server;
    const { url, origin } = started;

    browser = await launchBrowser();
    const { page, problems } = await openWatchedPage(browser);
    page.on("requestfailed", (request) => problems.push(`failed: ${request.url()}`));
    page.on("response", (answer) => {
      if (answer.status() >= 400) problems.push(`${answer.status()}: ${answer.url()}`);
    });

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

  it("renders hostile markdown (bodies, prompts, questions) so that nothing in it runs or loads", async () => {
    // A server the markdown's remote image points at: the page must never ask it for anything.
    const pixelRequests: string[] = [];
    const pixel = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: (request) => {
        pixelRequests.push(request.url);
        return new Response("", { status: 204 });
      },
    });
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="window.__pwned=\'svg-data\'"/>').toString(
      "base64",
    );
    const hostile = [
      "# Notes",
      "**bold** and a [plain link](https://example.invalid/) and `code`",
      "<script>window.__pwned = 'script'</script>",
      '<img src="x" onerror="window.__pwned = \'img-onerror\'">',
      "[javascript link](javascript:window.__pwned='javascript-link')",
      "<a href=\"JaVaScRiPt:window.__pwned='mixed-case'\">mixed case</a>",
      "[data link](data:text/html;base64,PHNjcmlwdD53aW5kb3cub3BlbmVyLl9fcHduZWQ9MTwvc2NyaXB0Pg==)",
      `![svg image](data:image/svg+xml;base64,${svg})`,
      `![remote image](http://127.0.0.1:${pixel.port}/pixel.png)`,
      '<svg><script>window.__pwned = "svg-script"</script></svg>',
      "<iframe src=\"javascript:parent.__pwned='iframe'\"></iframe>",
      '<form action="/api/threads"><button formaction="javascript:window.__pwned=\'button\'">Go</button></form>',
      '<div style="background:url(javascript:window.__pwned=1)" onclick="window.__pwned=\'click\'">styled</div>',
      "<math><mtext><table><mglyph><style><img src=x onerror=\"window.__pwned='mxss'\"></style></mglyph></table></mtext></math>",
    ].join("\n\n");
    const workflow = writeWorkflow(root, "notes", [
      "roles:",
      "  writer:",
      "    goal: Write notes.",
      "    frontmatter: { type: object, properties: { summary: { type: string } } }",
      "  asker:",
      "    goal: Ask.",
      "    frontmatter: { type: object, properties: { answer: { type: string } } }",
      "graph:",
      "  $START: [ { role: writer, prompt: 'Write.' } ]",
      "  writer: [ { role: asker, prompt: 'Ask about it.' } ]",
      "  asker: [ { role: $END, prompt: 'Done.' } ]",
    ]);
    const scenario = join(root, "notes.scenario.json");
    writeFileSync(
      scenario,
      JSON.stringify({
        steps: [
          { role: "writer", output: { summary: "notes" }, body: hostile },
          { role: "asker", output: { $status: "$SUSPEND", reason: hostile }, body: hostile },
        ],
      }),
    );
    const run = Bun.spawnSync([...UWF, "run", workflow, "-p", hostile, "--agent", `scripted:${scenario}`, "--json"], {
      env,
      cwd: root,
      stderr: "pipe",
    });
    expect(run.exitCode).toBe(20);
    const thread = (JSON.parse(run.stdout.toString()) as { thread: string }).thread;
    const log = JSON.parse(uwf(["log", thread, "--json"])) as { steps: { address: string }[] };
    const { server, url, origin } = await startUi();
    try {
      browser ??= await launchBrowser();
      const { page, problems } = await openWatchedPage(browser);
      page.on("popup", () => problems.push("a window opened"));
      await page.goto(url, { waitUntil: "networkidle2" });
      const pages = [`/threads/${thread}`, ...log.steps.map((step) => `/steps/${step.address}`)];
      for (const path of pages) {
        await page.goto(`${origin}${path}`, { waitUntil: "networkidle2" });
        await page.waitForFunction('document.querySelectorAll(".markdown-body strong").length > 0', {
          timeout: 10_000,
        });
        // The markdown was rendered (not shown as text), and the harmless parts kept.
        const rendered = (await page.evaluate(`(() => {
          const bodies = Array.from(document.querySelectorAll(".markdown-body"));
          const all = bodies.flatMap((body) => Array.from(body.querySelectorAll("*")));
          return {
            bodies: bodies.length,
            headings: bodies.filter((body) => body.querySelector("h1")?.textContent === "Notes").length,
            dangerous: all.filter((element) => ["SCRIPT", "IFRAME", "FORM", "BUTTON", "STYLE", "svg", "math", "OBJECT", "EMBED"].includes(element.tagName)).map((element) => element.tagName),
            handlers: all.flatMap((element) => Array.from(element.attributes).filter((attribute) => /^on|^style$|^formaction$/i.test(attribute.name)).map((attribute) => element.tagName + " " + attribute.name)),
            links: all.filter((element) => element.tagName === "A").map((element) => element.getAttribute("href")),
            images: all.filter((element) => element.tagName === "IMG").map((element) => element.getAttribute("src")),
            pwned: window.__pwned ?? null,
          };
        })()`)) as {
          bodies: number;
          headings: number;
          dangerous: string[];
          handlers: string[];
          links: (string | null)[];
          images: (string | null)[];
          pwned: unknown;
        };
        expect(rendered.bodies).toBeGreaterThan(0);
        expect(rendered.headings).toBeGreaterThan(0);
        expect(rendered.dangerous).toEqual([]);
        expect(rendered.handlers).toEqual([]);
        // Only the plain link keeps a target; the javascript: and data: ones lost theirs.
        expect(rendered.links.filter((href) => href !== null)).toEqual(
          rendered.links.filter((href) => href !== null).map(() => "https://example.invalid/"),
        );
        expect(rendered.links.length).toBeGreaterThanOrEqual(4);
        expect(rendered.images.filter((source) => source !== null)).toEqual([]);
        // Clicking every link that lost its target does nothing.
        await page.evaluate(
          'for (const link of document.querySelectorAll(".markdown-body a:not([href])")) link.click()',
        );
        expect(await page.evaluate("window.__pwned ?? null")).toBeNull();
        expect(rendered.pwned).toBeNull();
        // The raw view shows the stored text as text.
        await page.click('[data-testid="markdown-toggle"]');
        await page.waitForSelector(".markdown-raw");
        expect(await page.$eval(".markdown-raw", (element) => element.textContent)).toContain(
          "<script>window.__pwned = 'script'</script>",
        );
      }
      expect(pixelRequests).toEqual([]);
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      server.kill("SIGTERM");
      await server.exited;
      await pixel.stop(true);
    }
  }, 120_000);
});
