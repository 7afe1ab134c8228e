import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromiumSkipReason, type HeadlessChromium, launchChromium } from "./headless-chromium.ts";

const skipReason = chromiumSkipReason();
if (skipReason !== null) console.warn(`headless-chromium.test.ts ${skipReason}`);

describe.skipIf(skipReason !== null)("launchChromium", () => {
  const directory = mkdtempSync(join(tmpdir(), "uwf-chromium-test-"));
  let chromium: HeadlessChromium;

  beforeAll(async () => {
    chromium = await launchChromium();
  });

  afterAll(async () => {
    await chromium?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  function page(name: string, body: string): string {
    const file = join(directory, name);
    writeFileSync(file, `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>${body}</body></html>`);
    return pathToFileURL(file).href;
  }

  it("opens a page after its load event and evaluates expressions in it, awaiting promises", async () => {
    const opened = await chromium.openPage(page("fine.html", `<p id="p">hello</p><script>window.ready = 40;</script>`));
    expect(await opened.evaluate<number>("Promise.resolve(window.ready + 2)")).toBe(42);
    expect(await opened.evaluate<string>(`document.getElementById("p").textContent`)).toBe("hello");
    expect(opened.problems).toEqual([]);
    await expect(opened.evaluate("missing.property")).rejects.toThrow("the page threw: ReferenceError");
    await opened.close();
  });

  it("collects console errors, uncaught exceptions and failed loads as problems", async () => {
    const opened = await chromium.openPage(
      page(
        "broken.html",
        `<script>console.error("it broke", 3);</script><script>throw new TypeError("uncaught");</script><img src="missing.png">`,
      ),
    );
    const sources = opened.problems.map((problem) => problem.source);
    expect(sources).toContain("console");
    expect(sources).toContain("exception");
    expect(sources).toContain("log");
    expect(opened.problems.find((problem) => problem.source === "console")?.text).toBe("it broke 3");
    expect(opened.problems.find((problem) => problem.source === "exception")?.text).toContain("TypeError: uncaught");
    await opened.close();
  });

  it("emulates a colour scheme and JavaScript off", async () => {
    const url = page("scheme.html", `<script>document.body.dataset.ran = "yes";</script>`);
    const dark = await chromium.openPage(url, { colorScheme: "dark" });
    expect(await dark.evaluate<boolean>(`matchMedia("(prefers-color-scheme: dark)").matches`)).toBe(true);
    const withoutScripts = await chromium.openPage(url, { javaScript: false });
    expect(await withoutScripts.evaluate<string | null>("document.body.dataset.ran ?? null")).toBeNull();
    await dark.close();
    await withoutScripts.close();
  });
});
