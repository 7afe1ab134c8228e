import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { AgentEnvironment, AgentRunContext } from "../process/agent-launch-result.ts";
import type { ToolContext } from "../tools/agent-tool.ts";
import { makeTempDirectory } from "./make-temp-directory.ts";

/** A place to launch agents in, for tests, and the context a launch there gets. */
export interface AgentRunFixture {
  /** A fresh temp directory (a real path) holding `work` and `home`. */
  directory: string;
  /** `work`: the thread's cwd, where agents run. */
  cwd: string;
  /** `home`: the uwf home, empty. */
  home: string;
  env: AgentEnvironment;
  /** `cwd` and `env`, the prompt "the prompt", a 10 s timeout and a 200 ms kill grace: spread it, then override. */
  context: AgentRunContext;
  /** The tools' context of a run there: `cwd` as the workspace, no deadline, a 200 ms kill grace; spread it, then override. */
  toolContext: ToolContext;
  /** Deletes the directory and everything in it. */
  remove: () => void;
}

export interface CreateAgentRunFixtureOptions {
  /** Of the temp directory's name. */
  prefix?: string;
  /** Replaces parts of the default step: thread `AGENT_RUN_THREAD`, role `writer`, step 3. */
  env?: Partial<Omit<AgentEnvironment, "home">>;
}

export const AGENT_RUN_THREAD = "01JTHREAD00000000000000000";

/** A temp directory with a thread's cwd and a uwf home, and the run context of one step there. */
export function createAgentRunFixture(options: CreateAgentRunFixtureOptions = {}): AgentRunFixture {
  const temp = makeTempDirectory(options.prefix);
  const cwd = join(temp.path, "work");
  const home = join(temp.path, "home");
  mkdirSync(cwd);
  mkdirSync(home);
  const env: AgentEnvironment = { thread: AGENT_RUN_THREAD, role: "writer", step: 3, home, ...options.env };
  return {
    directory: temp.path,
    cwd,
    home,
    env,
    context: { prompt: "the prompt", cwd, env, timeoutMs: 10_000, killGraceMs: 200 },
    toolContext: { workspace: cwd, env, signal: new AbortController().signal, deadline: null, killGraceMs: 200 },
    remove: temp.remove,
  };
}
