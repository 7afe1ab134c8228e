import { describe, expect, it } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { useTempHome } from "../helpers/temp-home.ts";

const WORKFLOW = `name: judged
roles:
  judge:
    goal: Judge the change.
    frontmatter:
      type: object
      properties:
        reasoning: { type: string }
        verdict: { enum: [accept, reject] }
      required: [reasoning, verdict]
graph:
  $START: [{ role: judge, prompt: "Judge." }]
  judge: [{ role: $END, prompt: "Done." }]
`;

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
