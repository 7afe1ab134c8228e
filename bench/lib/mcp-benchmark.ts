import { Client, StdioClientTransport } from "../../packages/cli/test/helpers/mcp-sdk-client.ts";
import { runProcess, type Summary, summarize, type Timed, timedAgainst } from "./measure.ts";
import type { BenchHome } from "./replay-bench-home.ts";

export interface McpPlan {
  /** `uwf mcp` sessions started, and calls of each tool in each. */
  mcpSessions: number;
  mcpCalls: number;
  warmup: number;
}

export interface McpResult {
  /** Spawn to the `initialize` answer. */
  start: Timed;
  list: Summary;
  show: Summary;
  /** The `bun -e 0` runs taken one before each session. */
  floor: Summary;
}

/**
 * `uwf mcp --read-only` over stdio: spawning it to the `initialize` answer (the SDK client's `connect`), then
 * `list` and `show` tool calls; a floor run (`bun -e 0`) before each session.
 */
export async function measureMcp(
  binary: string,
  plan: McpPlan,
  built: BenchHome,
  env: Record<string, string | undefined>,
  floorCommand: string[],
): Promise<McpResult> {
  const floors: number[] = [];
  const starts: number[] = [];
  const lists: number[] = [];
  const shows: number[] = [];
  const clean = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  for (let session = 0; session < plan.warmup + plan.mcpSessions; session++) {
    const kept = session >= plan.warmup;
    const floor = runProcess(floorCommand, built.work, env);
    if (kept) floors.push(floor.ms);
    const transport = new StdioClientTransport({
      command: binary,
      args: ["mcp", "--read-only"],
      cwd: built.work,
      env: clean,
      stderr: "pipe",
    });
    const client = new Client({ name: "uwf-bench", version: "1.0.0" });
    let began = Bun.nanoseconds();
    await client.connect(transport);
    if (kept) starts.push((Bun.nanoseconds() - began) / 1e6);
    try {
      for (const [name, input, into] of [
        ["list", {}, lists],
        ["show", { reference: built.original }, shows],
      ] as const) {
        for (let call = 0; call < plan.mcpCalls; call++) {
          began = Bun.nanoseconds();
          const result = await client.callTool({ name, arguments: input });
          const ms = (Bun.nanoseconds() - began) / 1e6;
          if (result.isError === true) throw new Error(`uwf mcp's ${name}: ${JSON.stringify(result.content)}`);
          if (kept) into.push(ms);
        }
      }
    } finally {
      await client.close();
    }
  }
  const floor = summarize(floors);
  const start = summarize(starts);
  return {
    start: timedAgainst(floor, start),
    list: summarize(lists),
    show: summarize(shows),
    floor,
  };
}
