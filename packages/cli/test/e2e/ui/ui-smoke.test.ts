import { beforeAll, expect, it } from "bun:test";
import { createTempHome, LINEAR, SCRIPTED } from "../../helpers/temp-home.ts";
import { describeInBrowser, useUiInBrowser, waitForText } from "../../helpers/ui-browser.ts";

describeInBrowser("uwf ui in a browser", () => {
  const home = createTempHome();

  beforeAll(async () => {
    const ran = await home.uwf(["run", LINEAR, "-p", "Write hello.txt", "--agent", SCRIPTED]);
    if (ran.exitCode !== 0) throw new Error(ran.stderr);
  });

  const { ui, inPage } = useUiInBrowser(home);

  it("opens the page from the printed URL without a problem", async () => {
    await inPage(ui.url, "smoke", async ({ page, problems }) => {
      await waitForText(page, "header", "uwf");
      expect(problems).toEqual([]);
    });
  });
});
