import { mkdirSync } from "node:fs";
import { hostname } from "node:os";
import type { AgentActivity } from "@uwf/agent-kit";
import type { Store } from "@uwf/cas";
import type { Config } from "@uwf/protocol";

/** What every command gets besides its options. Commands never print and never exit. */
export interface CommandContext {
  home: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  json: boolean;
  quiet: boolean;
  verbose: boolean;
  color: boolean;
  /** Progress lines and spinners appear only when this is true. */
  interactive: boolean;
  host: string;
  now(): Date;
  newId(): string;
  openStore(): Promise<Store>;
  /** Closes the store if this command opened it. */
  close(): Promise<void>;
  loadConfig(): Promise<Config>;
  /** Aborted on SIGINT / SIGTERM so a running agent can be stopped cleanly. */
  signal: AbortSignal;
  warn(message: string): void;
  /** A message for the person at the terminal (stderr), silenced by `-q` and `--json`. */
  note(message: string): void;
  /** Live status while an agent runs; a no-op unless interactive. */
  progress(status: ProgressStatus | null): void;
  /** Streams an agent's stderr (for `-v`). */
  agentStderr(chunk: string): void;
}

export interface ProgressStatus {
  role: string;
  agent: string;
  startedAt: number;
  step: number;
  /** The agent's turns so far and the tool it called last, for agents that report them. */
  activity?: AgentActivity;
}

/** What the registry decides before a command runs; the rest of the context is derived from it. */
export type CreateContextOptions = Pick<
  CommandContext,
  "home" | "cwd" | "env" | "json" | "quiet" | "verbose" | "color" | "interactive" | "signal" | "newId" | "progress"
>;

export function createContext(options: CreateContextOptions): CommandContext {
  let store: Promise<Store> | undefined;
  let config: Promise<Config> | undefined;
  return {
    ...options,
    host: hostname(),
    now: () => new Date(),
    openStore() {
      store ??= (async () => {
        mkdirSync(options.home, { recursive: true });
        const { openStoreFromEnvironment } = await import("./open-store.ts");
        return openStoreFromEnvironment(options.home, options.env);
      })();
      return store;
    },
    async close() {
      if (store !== undefined) await (await store).close();
    },
    loadConfig() {
      config ??= import("./load-home-config.ts").then(({ loadConfig }) => loadConfig(options.home));
      return config;
    },
    warn(message: string) {
      if (!options.quiet) process.stderr.write(`warning: ${message}\n`);
    },
    note(message: string) {
      if (!options.quiet && !options.json) process.stderr.write(`${message}\n`);
    },
    agentStderr(chunk: string) {
      if (options.verbose) process.stderr.write(chunk);
    },
    progress: options.progress,
  };
}
