import type { ApiRoute } from "./api-route.ts";
import { checkBodyFields } from "./check-body-fields.ts";

/**
 * The workbench's endpoints (issue 46): start a thread, list the agent aliases, delete a thread, and the
 * schedules. Like every route they run the command `uwf … --json` runs; the body checks below refuse
 * what the command could misread (a field of the wrong type), and the command refuses the rest as the
 * CLI does (an unknown workflow or agent, inputs its schema refuses).
 */

/** What `step` of `POST /api/threads` asks for after the start: nothing, one step, or steps until the thread stops. */
export const START_STEP_MODES = ["none", "one", "run"] as const;

/** An input's name as `--input KEY=VALUE` takes it. */
const INPUT_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** What is wrong with a `POST /api/threads` body, or null. */
function checkStartBody(body: Record<string, unknown>): string | null {
  const problem = checkBodyFields(
    body,
    { workflow: "string", prompt: "string", inputs: "object", agent: "string", cwd: "string", step: "string" },
    ["workflow", "prompt"],
  );
  if (problem !== null) return problem;
  const step = body.step ?? "none";
  if (!(START_STEP_MODES as readonly unknown[]).includes(step)) {
    return `the body's "step" must be one of ${START_STEP_MODES.join(", ")}, not ${JSON.stringify(step)}`;
  }
  if (step === "none" && body.agent !== undefined) {
    return `the body's "agent" runs steps: give "step": "one" or "run" with it (a thread only started takes no agent)`;
  }
  if (body.agent === "") return `the body's "agent" must name an agent alias or scripted:FILE`;
  for (const name of Object.keys((body.inputs as Record<string, unknown> | undefined) ?? {})) {
    if (!INPUT_NAME.test(name)) {
      return `the body's "inputs" has ${JSON.stringify(name)}: an input's name is letters, digits, '_' and '-'`;
    }
  }
  return null;
}

/** An agent alias of config.yaml as the page offers it: its name and kind, none of its settings (which may hold secrets). */
export interface AgentAlias {
  alias: string;
  /** The built-in it runs (`scripted`, `anthropic`, …), the preset (`claude-code`), or `command`. */
  kind: string;
}

/** `uwf config get agents`' value as aliases and kinds, by alias. */
function agentAliases(result: unknown): { agents: AgentAlias[] } {
  const value = (result as { value?: unknown }).value;
  const agents: AgentAlias[] = [];
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    for (const [alias, spec] of Object.entries(value)) {
      const fields = (spec ?? {}) as Record<string, unknown>;
      const kind =
        typeof fields.builtin === "string"
          ? fields.builtin
          : typeof fields.preset === "string"
            ? fields.preset
            : "command";
      agents.push({ alias, kind });
    }
  }
  agents.sort((left, right) => left.alias.localeCompare(right.alias));
  return { agents };
}

export const WORKBENCH_ROUTES: readonly ApiRoute[] = [
  {
    method: "POST",
    path: "/api/threads",
    // `uwf start`, or `uwf run` (start, then the steps) when the body asks for steps.
    command: ["start"],
    commandFor: (body) => ((body.step ?? "none") === "none" ? ["start"] : ["run"]),
    mutating: true,
    options: ({ body }) => ({
      workflow: body.workflow,
      // Each value as YAML text `--input KEY=VALUE` reads (JSON is YAML): checked by the command as the CLI checks it.
      input: Object.entries((body.inputs as Record<string, unknown> | undefined) ?? {}).map(
        ([name, value]) => `${name}=${JSON.stringify(value)}`,
      ),
      cwd: body.cwd,
      agent: body.agent,
      steps: body.step === "one" ? 1 : undefined,
    }),
    // The prompt goes to `--prompt-file`: as `-p` text, a prompt of "-" would read the server's stdin.
    files: (body) => ({ promptFile: { text: body.prompt as string, field: "prompt" } }),
    check: checkStartBody,
  },
  {
    method: "GET",
    path: "/api/agents",
    command: ["config", "get"],
    mutating: false,
    options: () => ({ key: "agents" }),
    project: agentAliases,
  },
  {
    method: "POST",
    path: "/api/threads/:id/delete",
    command: ["delete"],
    mutating: true,
    // The page asked the user first (its confirmation dialog), as the terminal's prompt does.
    options: ({ params }) => ({ threads: [params.id], yes: true }),
  },
  {
    method: "GET",
    path: "/api/schedules",
    command: ["schedule", "list"],
    mutating: false,
    options: () => ({}),
  },
  {
    method: "GET",
    path: "/api/schedules/:name",
    command: ["schedule", "show"],
    mutating: false,
    options: ({ params }) => ({ name: params.name }),
  },
  {
    method: "POST",
    path: "/api/schedules/:name/pause",
    command: ["schedule", "pause"],
    mutating: true,
    options: ({ params }) => ({ name: params.name }),
  },
  {
    method: "POST",
    path: "/api/schedules/:name/resume",
    command: ["schedule", "resume"],
    mutating: true,
    options: ({ params }) => ({ name: params.name }),
  },
  {
    method: "POST",
    path: "/api/schedules/:name/trigger",
    command: ["schedule", "trigger"],
    mutating: true,
    options: ({ params, body }) => ({
      name: params.name,
      queue: body.queue === true ? true : undefined,
      agent: body.agent,
    }),
    check: (body) => checkBodyFields(body, { queue: "boolean", agent: "string" }),
  },
];
