import { join } from "node:path";
import { FIXTURES, LINEAR, type TempHome } from "./temp-home.ts";

/**
 * The home the UI workbench tests (the API's in test/ui, the browser's in test/e2e/ui) start threads in:
 * three agents to pick from and the workflows of the new-thread form.
 */

/** linear's roles, started with typed inputs (topic and count required, urgent, tone). */
export const BRIEF = join(FIXTURES, "workflows/brief.yaml");
export const ASK = join(FIXTURES, "workflows/ask.yaml");
/** The key the `keyed` agent's environment holds, which no answer may show. */
export const WORKBENCH_SECRET = "sk-test-never-shown-4f3e2d1c";

/** config.yaml lines: `agents:` with `linear` and `asker`, scripted agents playing linear's and ask's scenarios. */
export const SCRIPTED_AGENTS_CONFIG: readonly string[] = [
  "agents:",
  "  linear:",
  "    builtin: scripted",
  `    scenario: ${join(FIXTURES, "workflows/linear.scenario.yaml")}`,
  "  asker:",
  "    builtin: scripted",
  `    scenario: ${join(FIXTURES, "workflows/ask.scenario.yaml")}`,
];

/**
 * Agents `linear` (the default) and `asker` (scripted) and `keyed` (a command with a key in its
 * environment), and the workflows brief, linear and ask added. No default agent fits ask: a resume
 * that runs it needs the agent picked.
 */
export async function setUpWorkbenchHome(home: TempHome): Promise<void> {
  home.writeConfig(
    [
      ...SCRIPTED_AGENTS_CONFIG,
      "  keyed:",
      "    command: sh",
      '    args: ["-c", "cat"]',
      "    env:",
      `      SOME_API_KEY: ${WORKBENCH_SECRET}`,
      "defaultAgent: linear",
      "",
    ].join("\n"),
  );
  for (const file of [BRIEF, LINEAR, ASK]) {
    const added = await home.uwf(["workflow", "add", file]);
    if (added.exitCode !== 0) throw new Error(`uwf workflow add ${file}: ${added.stderr}`);
  }
}
