import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { Browser } from "puppeteer-core";
import { createTempHome, LINEAR, SCRIPTED } from "../../helpers/temp-home.ts";
import {
  chromiumSkipReason,
  launchBrowser,
  openPage,
  type RunningUi,
  startUi,
  waitForText,
  withScreenshotOnFailure,
} from "../../helpers/ui-browser.ts";

const skip = chromiumSkipReason();

describe.skipIf(skip !== null)("uwf ui in a browser", () => {
  const home = createTempHome();
  let ui: RunningUi;
  let browser: Browser;

  beforeAll(async () => {
    const ran = await home.uwf(["run", LINEAR, "-p", "Write hello.txt", "--agent", SCRIPTED]);
    if (ran.exitCode !== 0) throw new Error(ran.stderr);
    ui = await startUi(home);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await ui?.stop();
    home.cleanup();
  });

  it("opens the page from the printed URL without a problem", async () => {
    const { page, problems } = await openPage(browser, ui.url);
    await withScreenshotOnFailure(page, "smoke", async () => {
      await waitForText(page, "header", "uwf");
      expect(problems).toEqual([]);
    });
  });
});
