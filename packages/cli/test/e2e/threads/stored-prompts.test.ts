import { describe, expect, it } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, statSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { FIXTURES, fixtureAgentsConfig, useTempHome } from "../../helpers/temp-home.ts";

const temp = useTempHome();

/** Every file under the home's objects folder, with its size. */
function objectFiles(home: string): { path: string; size: number }[] {
  const root = join(home, "objects");
  return readdirSync(root).flatMap((folder) =>
    readdirSync(join(root, folder)).map((name) => {
      const path = join(root, folder, name);
      return { path, size: statSync(path).size };
    }),
  );
}

async function stepAddress(thread: string, number: number): Promise<string> {
  const log = await temp.uwf(["log", thread, "--json"]);
  expect(log.exitCode).toBe(0);
  const steps = log.json<{ steps: { number: number; address: string }[] }>().steps;
  const step = steps.find((candidate) => candidate.number === number);
  if (step === undefined) throw new Error(`no step ${number} in ${log.stdout.slice(0, 200)}`);
  return step.address;
}

async function shownPrompt(thread: string, number: number): Promise<string> {
  const shown = await temp.uwf(["show", await stepAddress(thread, number), "--prompt"]);
  expect(shown.stderr).toBe("");
  expect(shown.exitCode).toBe(0);
  return shown.stdout;
}

describe("stored prompts (issue 43)", () => {
  it("shows at steps 1 and 300 the exact bytes the agent read, and keeps them through gc", async () => {
    const prompts = join(temp.work, "prompts");
    mkdirSync(prompts);
    temp.writeConfig([...fixtureAgentsConfig(["save-prompt"]), "defaultAgent: save-prompt"].join("\n"));
    const environment = { PROMPT_DIR: prompts };
    const workflow = join(FIXTURES, "workflows/model-loop.yaml");
    const started = await temp.uwf(["start", workflow, "-p", "Work in rounds.", "--max-steps", "400", "--json"]);
    expect(started.exitCode).toBe(0);
    const thread = started.json<{ thread: string }>().thread;
    const first = await temp.uwf(["step", thread], { env: environment });
    expect(first.stderr).toBe("");
    expect(first.exitCode).toBe(0);
    const rest = await temp.uwf(["step", thread, "-n", "299"], { env: environment });
    expect(rest.exitCode).toBe(0);

    const atStep1 = await shownPrompt(thread, 1);
    expect(atStep1).toBe(readFileSync(join(prompts, "step-1.txt"), "utf8"));
    const atStep300 = await shownPrompt(thread, 300);
    expect(atStep300).toBe(readFileSync(join(prompts, "step-300.txt"), "utf8"));
    expect(atStep300).toContain("## Step 299: worker (you)");

    // The store holds each history entry once: far less than the prompts' own bytes (about 300² / 2 entries).
    const promptBytes = readdirSync(prompts).reduce((sum, name) => sum + statSync(join(prompts, name)).size, 0);
    const storeBytes = objectFiles(temp.home).reduce((sum, file) => sum + file.size, 0);
    expect(storeBytes * 4).toBeLessThan(promptBytes);

    // gc follows a prompt's references: with every object old enough to collect, none of the prompt's goes.
    const longAgo = new Date(Date.now() - 7_200_000);
    for (const file of objectFiles(temp.home)) utimesSync(file.path, longAgo, longAgo);
    const gc = await temp.uwf(["cas", "gc", "--json"]);
    expect(gc.exitCode).toBe(0);
    const verify = await temp.uwf(["cas", "verify"]);
    expect(verify.stderr).toBe("");
    expect(verify.exitCode).toBe(0);
    expect(await shownPrompt(thread, 300)).toBe(atStep300);
  }, 240_000);
});
