import { describe, expect, it } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useTempHome } from "../../helpers/temp-home.ts";

/** The workflow the agents package checks field order on: a role, a nested object, and a role already in order. */
const WORKFLOW = readFileSync(
  join(import.meta.dir, "../../../../agent-kit/test/fixtures/workflows/judged.yaml"),
  "utf8",
);

const temp = useTempHome();

describe("the author's field order", () => {
  it("is what workflow show prints for a registered workflow, whose --json still hashes to its address", async () => {
    const file = join(temp.work, "judged.yaml");
    writeFileSync(file, WORKFLOW);
    expect((await temp.uwf(["workflow", "add", file])).exitCode).toBe(0);
    const shown = await temp.uwf(["workflow", "show", "judged"]);
    expect(shown.exitCode).toBe(0);
    expect(shown.stdout.indexOf("reasoning:")).toBeLessThan(shown.stdout.indexOf("verdict:"));
    expect(shown.stdout).not.toContain("x-uwf-order");
    const json = (await temp.uwf(["workflow", "show", "judged", "--json"])).json() as {
      hash: string;
      workflow: unknown;
    };
    const put = await temp.uwf(["cas", "put"], { stdin: JSON.stringify(json.workflow) });
    expect(put.stdout.trim()).toContain(json.hash);
  }, 60_000);
});
