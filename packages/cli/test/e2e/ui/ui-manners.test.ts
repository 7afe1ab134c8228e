/**
 * The web UI's manners: no serious or critical accessibility violation (axe-core, pinned, run in real
 * headless Chromium) on any page, in the light theme and the dark one; the dark theme follows
 * `prefers-color-scheme`; the keyboard moves through lists (j, k, Enter) and `/` focuses a search box;
 * and the page's scripts and styles, as `uwf ui` serves them, weigh at most 250 KB gzipped.
 */
import { beforeAll, expect, it } from "bun:test";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { evalResultSchema, forkResultSchema, type LogResult, stepResultSchema } from "@uwf/protocol";
import { createTempHome, FIXTURES, LINEAR, SCRIPTED } from "../../helpers/temp-home.ts";
import { describeInBrowser, seriousAxeViolations, useUiInBrowser } from "../../helpers/ui-browser.ts";
import { uwfExiting } from "../../helpers/uwf-exiting.ts";

const TIMEOUT = 180_000;
const BUNDLE_LIMIT_BYTES = 250 * 1024;
const ASK = join(FIXTURES, "workflows/ask.yaml");
const ASK_SCENARIO = `scripted:${join(FIXTURES, "workflows/ask.scenario.yaml")}`;

describeInBrowser("uwf ui: accessibility, theme, keyboard, weight", () => {
  const home = createTempHome();
  let pages: string[];
  let threads: string[];

  async function uwfJson(args: string[], exitCode = 0): Promise<unknown> {
    return (await uwfExiting(home, [...args, "--json"], exitCode)).json();
  }

  beforeAll(async () => {
    const ended = stepResultSchema.parse(await uwfJson(["run", LINEAR, "-p", "Write hello.txt", "--agent", SCRIPTED]));
    const suspended = stepResultSchema.parse(await uwfJson(["run", ASK, "-p", "Colour?", "--agent", ASK_SCENARIO], 20));
    const log = (await uwfJson(["log", ended.thread])) as LogResult;
    const first = log.steps[0]?.address as string;
    const fork = forkResultSchema.parse(await uwfJson(["fork", first]));
    cpSync(join(FIXTURES, "eval"), join(home.work, "eval"), { recursive: true });
    const suite = join(home.work, "eval", "suite.yaml");
    writeFileSync(suite, readFileSync(suite, "utf8").replace(/^repeat: \d+$/m, "repeat: 1"));
    home.writeConfig(
      ["agents:", `  judge-sh: { command: sh, args: ["${join(home.work, "eval", "judge.sh")}"] }`, ""].join("\n"),
    );
    const report = evalResultSchema.parse(await uwfJson(["eval", "--suite", suite])).report;
    const rescored = evalResultSchema.parse(
      await uwfJson(["eval", "rescore", report, "--replace", "--assert", "ok=outcome: approved"]),
    ).report;
    threads = [ended.thread, suspended.thread];
    pages = [
      "/",
      `/threads/${ended.thread}`,
      `/threads/${suspended.thread}`,
      `/steps/${first}`,
      `/threads/${ended.thread}/graph`,
      `/threads/${ended.thread}/family`,
      `/diff/${ended.thread}/${fork.thread}`,
      "/workflows",
      "/workflows/linear",
      "/experiments",
      `/experiments/${report}`,
      `/experiments/diff/${report}/${rescored}`,
    ];
  }, TIMEOUT);

  const { ui, browser, inPage } = useUiInBrowser(home, { signIn: true, timeoutMs: TIMEOUT });

  it(
    "has no serious or critical accessibility violation on any page, in the light theme or the dark one",
    async () => {
      const found: Record<string, unknown> = {};
      for (const path of pages) {
        const page = await browser.newPage();
        await page.setViewport({ width: 1280, height: 900 });
        await page.goto(`${ui.origin}${path}`, { waitUntil: "networkidle2" });
        await page.waitForFunction('!document.querySelector(".loading") && document.querySelector("main *")', {
          timeout: 10_000,
        });
        // Each page showed what it is for, not an error.
        const errors = await page.$$eval("main .error", (boxes) => boxes.map((box) => box.textContent));
        expect({ path, errors }).toEqual({ path, errors: [] });
        for (const scheme of ["light", "dark"] as const) {
          await page.emulateMediaFeatures([{ name: "prefers-color-scheme", value: scheme }]);
          const violations = await seriousAxeViolations(page);
          if (violations.length > 0) found[`${path} (${scheme})`] = violations;
        }
        await page.close();
      }
      expect(found).toEqual({});
    },
    TIMEOUT,
  );

  it(
    "follows prefers-color-scheme: a dark page in the dark, a light one in the light",
    async () => {
      const luminance = async (scheme: "light" | "dark") => {
        const page = await browser.newPage();
        await page.emulateMediaFeatures([{ name: "prefers-color-scheme", value: scheme }]);
        await page.goto(`${ui.origin}/`, { waitUntil: "networkidle2" });
        const rgb = (await page.evaluate(
          "getComputedStyle(document.body).backgroundColor.match(/\\d+/g).slice(0, 3).map(Number)",
        )) as number[];
        await page.close();
        return ((rgb[0] ?? 0) * 0.2126 + (rgb[1] ?? 0) * 0.7152 + (rgb[2] ?? 0) * 0.0722) / 255;
      };
      expect(await luminance("dark")).toBeLessThan(0.2);
      expect(await luminance("light")).toBeGreaterThan(0.8);
    },
    TIMEOUT,
  );

  it(
    "moves through the thread list with j and k, opens the row with Enter, and focuses search with /",
    async () => {
      await inPage("/", "keyboard", async ({ page, problems }) => {
        await page.waitForSelector('[data-testid="thread-row"]');
        const rows = (await page.$$eval('[data-testid="thread-row"]', (found) =>
          found.map((row) => row.getAttribute("data-thread")),
        )) as string[];
        expect(rows.length).toBeGreaterThanOrEqual(threads.length);
        const selected = () =>
          page.evaluate(
            'Array.from(document.querySelectorAll("main tbody tr.key-selected")).map((row) => row.getAttribute("data-thread") + (row.contains(document.activeElement) ? ":focused" : ""))',
          );
        await page.keyboard.press("j");
        expect(await selected()).toEqual([`${rows[0]}:focused`]);
        await page.keyboard.press("j");
        expect(await selected()).toEqual([`${rows[1]}:focused`]);
        await page.keyboard.press("k");
        expect(await selected()).toEqual([`${rows[0]}:focused`]);
        await page.keyboard.press("Enter");
        await page.waitForSelector(`[data-testid="thread-page"][data-thread="${rows[0]}"]`, { timeout: 10_000 });

        // `/` focuses the page's search box wherever one is, and j typed into it stays text.
        await page.evaluate(
          'document.querySelector("main").insertAdjacentHTML("afterbegin", \'<input type="search" aria-label="Search" id="probe">\')',
        );
        await page.keyboard.press("/");
        expect(await page.evaluate("document.activeElement?.id")).toBe("probe");
        await page.keyboard.type("jk");
        expect(await page.evaluate('document.querySelector("#probe").value')).toBe("jk");
        expect(problems).toEqual([]);
      });
    },
    TIMEOUT,
  );

  it("serves its scripts and styles within 250 KB gzipped", async () => {
    const html = await (await fetch(`${ui.origin}/`)).text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+\.(?:js|css))"/g)].map((match) => match[1] as string);
    expect(assets.some((asset) => asset.endsWith(".js"))).toBe(true);
    expect(assets.some((asset) => asset.endsWith(".css"))).toBe(true);
    let total = 0;
    for (const asset of assets) {
      const response = await fetch(new URL(asset, `${ui.origin}/`));
      expect(response.status).toBe(200);
      total += Bun.gzipSync(new Uint8Array(await response.arrayBuffer())).length;
    }
    console.log(`page weight: ${assets.length} files, ${(total / 1024).toFixed(1)} KB gzipped`);
    expect(total).toBeLessThanOrEqual(BUNDLE_LIMIT_BYTES);
  });
});
