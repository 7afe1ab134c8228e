/**
 * `uwf mcp` (read-write and `--read-only`) names workflows only by what the store holds: a registered
 * name, an address, a stored thread, a file of the home's own `workflows/` folder. A path — plain, with
 * `..`, or a link in the home's `workflows/` that leads out — is "no workflow" in every tool that takes a
 * workflow, answered exactly as a missing name is, so a client can neither read a file nor learn that
 * it exists.
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { workflowListResultSchema } from "@uwf/protocol";
import { writeFilesOutsideHome } from "../../helpers/files-outside-home.ts";
import { UWF_COMMAND } from "../../helpers/run-process.ts";
import { createTempHome, LINEAR, SCRIPTED } from "../../helpers/temp-home.ts";

const SECRET = "not-a-real-secret-5521-heron";
/** The name every refused path is compared with: no workflow, no file, nothing. */
const MISSING = "no-such-workflow";

describe("uwf mcp and the user's files", () => {
  const temp = createTempHome();
  const clients: Client[] = [];
  /** References a client must not get a workflow from (`name` in answers is the reference itself). */
  const refused: string[] = [];
  let thread: string;

  beforeAll(async () => {
    const elsewhere = join(temp.work, "..", "elsewhere");
    const { workflow, secrets } = writeFilesOutsideHome(elsewhere, SECRET);
    mkdirSync(join(temp.home, "workflows"), { recursive: true });
    symlinkSync(workflow, join(temp.home, "workflows", "private-flow.yaml"));
    symlinkSync(secrets, join(temp.home, "workflows", "leak.yaml"));
    refused.push(
      workflow,
      secrets,
      "/etc/passwd",
      // The server runs in temp.work: `..` paths from there, and from the home.
      relative(temp.work, workflow),
      relative(temp.work, secrets),
      "../../../../../../../../etc/passwd",
      `${temp.home}/../elsewhere/private-flow.yaml`,
      // Links in the home's workflows/ that lead out of it.
      "private-flow",
      "leak",
    );
    thread = await temp.startThread(LINEAR, "Keep me");
  }, 60_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    temp.cleanup();
  });

  async function connect(flags: string[]): Promise<Client> {
    const transport = new StdioClientTransport({
      command: UWF_COMMAND[0] as string,
      args: [...UWF_COMMAND.slice(1), "mcp", ...flags],
      cwd: temp.work,
      env: { ...(process.env as Record<string, string>), UWF_HOME: temp.home, HOME: temp.home, NO_COLOR: "1" },
      stderr: "pipe",
    });
    const client = new Client({ name: "uwf-e2e-paths", version: "1.0.0" });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  const call = async (client: Client, name: string, input: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: input })) as CallToolResult;

  /** A call's whole answer as text, with the reference put back as MISSING, so two answers can be compared. */
  const answerOf = (called: CallToolResult, reference: string) =>
    JSON.stringify({ isError: called.isError, content: called.content, meta: called._meta })
      .split(JSON.stringify(reference).slice(1, -1))
      .join(MISSING);

  /** The tools that take a workflow, each as one call naming `reference`. */
  const readingCalls: Array<[string, (reference: string) => Record<string, unknown>]> = [
    ["list", (reference) => ({ workflow: reference })],
    ["show", (reference) => ({ reference })],
  ];
  const writingCalls: Array<[string, (reference: string) => Record<string, unknown>]> = [
    ["start", (reference) => ({ workflow: reference, prompt: "Read it" })],
    ["run", (reference) => ({ workflow: reference, prompt: "Read it", agent: SCRIPTED })],
    [
      "eval",
      (reference) => ({
        suite: `name: paths\nworkflow: ${JSON.stringify(reference)}\ncases:\n  - { name: one, prompt: Go }\nvariants:\n  - { name: scripted, agent: "${SCRIPTED}" }\n`,
      }),
    ],
    ["eval", (reference) => ({ threads: [thread], assert: [`judge: ${reference}`] })],
    ["eval", (reference) => ({ workflow: reference, assert: ["status: ended"] })],
  ];

  for (const flags of [[], ["--read-only"]]) {
    it(`answers every path as a missing name, quoting no file (uwf mcp ${flags.join(" ")})`, async () => {
      const client = await connect(flags);
      const calls = flags.length === 0 ? [...readingCalls, ...writingCalls] : readingCalls;
      const threadsBefore = await temp.threadCount();
      for (const [tool, input] of calls) {
        const missing = answerOf(await call(client, tool, input(MISSING)), MISSING);
        for (const reference of refused) {
          const answer = answerOf(await call(client, tool, input(reference)), reference);
          expect(answer).not.toContain(SECRET);
          expect(answer).not.toContain("root:");
          expect(answer).not.toContain("db.internal");
          expect({ tool, reference, answer }).toEqual({ tool, reference, answer: missing });
        }
      }
      // Nothing was started from any of them, and no name was registered.
      expect(await temp.threadCount()).toBe(threadsBefore);
      const registered = workflowListResultSchema.parse((await temp.uwf(["workflow", "list", "--json"])).json());
      expect(registered.workflows.filter((entry) => entry.source === "registry").map((entry) => entry.name)).toEqual([
        "linear",
      ]);
      // workflow_list names the home's files, but none a link leads to out of its workflows/.
      const listed = await call(client, "workflow_list", {});
      expect(JSON.stringify(listed)).not.toContain(SECRET);
      expect(
        workflowListResultSchema.parse(listed.structuredContent).workflows.map((entry) => entry.name),
      ).not.toContainEqual(expect.stringMatching(/^(leak|private-flow)$/));
    }, 120_000);
  }

  it("still starts a registered name, a thread's workflow and a file of the home's workflows/ (uwf mcp)", async () => {
    const client = await connect([]);
    writeFileSync(
      join(temp.home, "workflows", "project-only.yaml"),
      readFileSync(LINEAR, "utf8").replace("name: linear", "name: project-only"),
    );
    for (const reference of [thread, "project-only"]) {
      const started = await call(client, "start", { workflow: reference, prompt: "Go" });
      expect(started.isError).toBeFalsy();
    }
    // The project file was registered as `uwf start NAME` registers it.
    const listed = await temp.uwf(["workflow", "list", "--json"]);
    expect(listed.stdout).toContain("project-only");
    const byName = await call(client, "start", { workflow: "project-only", prompt: "Again" });
    expect(byName.isError).toBeFalsy();
  }, 60_000);
});
