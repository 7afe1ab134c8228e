import { afterEach, describe, expect, it } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { shownThreadSchema, stepResultSchema } from "@uwf/protocol";
import { UWF_COMMAND } from "../../helpers/run-process.ts";
import { compositionFixture, STORES, useCompositionStores } from "./composition-kit.ts";

/**
 * `uwf mcp` over a fan-out: the `run` tool runs the branches and the join, and `show` gives the same
 * counts the CLI gives — on the embedded store and on PostgreSQL.
 */
const storeOf = useCompositionStores();
const FAN_OUT = compositionFixture("fan-out");

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function callTool<Value>(client: Client, name: string, input: Record<string, unknown>): Promise<Value> {
  const called = (await client.callTool({ name, arguments: input })) as {
    isError?: boolean;
    content: unknown;
    structuredContent?: unknown;
  };
  if (called.isError === true) throw new Error(`${name} failed: ${JSON.stringify(called.content)}`);
  return called.structuredContent as Value;
}

describe.each(STORES)("MCP × fan-out (%s store)", (kind) => {
  it("runs a registered fan-out through the run tool, and its show tool counts as the CLI does", async () => {
    const store = storeOf(kind);
    expect((await store.uwf(["workflow", "add", FAN_OUT.workflow])).exitCode).toBe(0);
    const transport = new StdioClientTransport({
      command: UWF_COMMAND[0] as string,
      args: [...UWF_COMMAND.slice(1), "mcp"],
      cwd: store.temp.work,
      env: { ...(process.env as Record<string, string>), UWF_HOME: store.temp.home, NO_COLOR: "1", ...store.env },
      stderr: "pipe",
    });
    const client = new Client({ name: "uwf-e2e", version: "1.0.0" });
    await client.connect(transport);
    clients.push(client);

    const run = stepResultSchema.parse(
      await callTool(client, "run", { workflow: "fan-out", prompt: "Cache it", agent: FAN_OUT.agent }),
    );
    expect(run).toMatchObject({ status: "ended", outcome: { role: "merger", status: "shipped" } });
    const threads = await store.list();
    expect(threads).toHaveLength(3);
    expect(threads.every((thread) => thread.status === "ended")).toBe(true);
    const shown = shownThreadSchema.parse(await callTool(client, "show", { reference: run.thread }));
    expect(shown.counts).toEqual({ steps: 2, inherited: 0, replaced: 0, taken: 2, branchSteps: 2, budgetSteps: 4 });
    expect(shown.budget?.spent.steps).toBe(4);
    await store.expectCounts(run.thread, { steps: 2, inherited: 0, replaced: 0, taken: 2, branchSteps: 2 });
    await store.expectVerifies();
  });
});
