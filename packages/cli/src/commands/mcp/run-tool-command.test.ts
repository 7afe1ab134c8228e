import { afterEach, describe, expect, it } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { openFileStore, type Store } from "@uwf/cas";
import { createTempHome, LINEAR, SCRIPTED, type TempHome } from "../../../test/helpers/temp-home.ts";
import { COMMAND_TABLE } from "../command-table.ts";
import { createMachineContext } from "../ui/command-backend.ts";
import type { McpToolSpec } from "./mcp-tool-spec.ts";
import { MCP_TOOLS } from "./mcp-tools.ts";
import { runToolCommand } from "./run-tool-command.ts";

/** A tool over `uwf workflow show`, as a read-only MCP tool that names a workflow would be. */
const WORKFLOW_SHOW: McpToolSpec = {
  name: "workflow_show",
  title: "Show a workflow",
  description: "",
  command: ["workflow", "show"],
  input: {},
  toOptions: (input) => input,
  readOnly: true,
  runsAgents: false,
};

let opened: { temp: TempHome; store: Store } | undefined;
afterEach(async () => {
  await opened?.store.close();
  opened?.temp.cleanup();
  opened = undefined;
});

describe("runToolCommand under uwf mcp --read-only", () => {
  it("names workflows only by what the store holds: a path is no workflow, a thread's workflow is", async () => {
    const temp = createTempHome();
    const thread = await temp.startThread(LINEAR, "Keep me");
    const store = await openFileStore(temp.home);
    opened = { temp, store };
    const secret = join(temp.work, "secret.yaml");
    writeFileSync(secret, "password: not-a-real-secret-9912\n");
    const base = createMachineContext(
      { home: temp.home, storeFlag: undefined, cwd: temp.work, env: {}, newId: () => "x" },
      new AbortController().signal,
    );
    const call = (reference: string, storedWorkflowsOnly: boolean) =>
      runToolCommand({
        spec: WORKFLOW_SHOW,
        input: { reference },
        commands: COMMAND_TABLE,
        context: { ...base, storedWorkflowsOnly },
        store,
        signal: new AbortController().signal,
      });
    for (const reference of [LINEAR, secret, "/etc/passwd"]) {
      const refused = await call(reference, true);
      expect(refused).toMatchObject({ ok: false, error: { code: "workflow-not-found", data: { stored: true } } });
      expect(JSON.stringify(refused)).not.toContain("not-a-real-secret");
    }
    expect(await call(thread, true)).toMatchObject({ ok: true, result: { workflow: { name: "linear" } } });
    // The command line (and a read-write server) still reads a file it is given.
    expect(await call(LINEAR, false)).toMatchObject({ ok: true, result: { workflow: { name: "linear" } } });
  }, 30_000);
});

describe("runToolCommand for the tools that read a thread's view", () => {
  it("answers show, log, list and tree from the engine exactly as their commands' --json, errors too", async () => {
    const temp = createTempHome();
    const thread = await temp.startThread(LINEAR, "Read me");
    expect((await temp.uwf(["step", thread, "--all", "-q", "--agent", SCRIPTED])).exitCode).toBe(0);
    const store = await openFileStore(temp.home);
    opened = { temp, store };
    const context = createMachineContext(
      { home: temp.home, storeFlag: undefined, cwd: temp.work, env: {}, newId: () => "x" },
      new AbortController().signal,
    );
    const call = (spec: McpToolSpec, input: Record<string, unknown>) =>
      runToolCommand({ spec, input, commands: COMMAND_TABLE, context, store, signal: new AbortController().signal });
    const cases: [string, Record<string, unknown>][] = [
      ["show", { reference: thread }],
      ["show", { reference: thread, reply: true }],
      ["show", { reference: "01NOSUCHTHREAD" }],
      ["log", { thread }],
      ["log", { thread: "01NOSUCH" }],
      ["list", {}],
      ["list", { status: "ended", limit: 1 }],
      ["list", { recursive: true }],
      ["tree", { thread }],
    ];
    for (const [name, input] of cases) {
      const spec = MCP_TOOLS.find((tool) => tool.name === name) as McpToolSpec;
      expect(spec.read).toBeDefined();
      const { read: _read, ...asCommand } = spec;
      const read = await call(spec, input);
      expect({ name, input, outcome: read }).toEqual({ name, input, outcome: await call(asCommand, input) });
    }
  }, 30_000);
});
