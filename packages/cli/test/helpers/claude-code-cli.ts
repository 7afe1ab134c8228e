import { afterEach, beforeEach } from "bun:test";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { type FakeAnthropicServer, type FakeRequestView, startFakeAnthropicServer } from "@uwf/agent-kit/test";
import { createTempHome, currentWhileTestRuns, type TempHome } from "./temp-home.ts";

/**
 * The folder that pins the real `claude` CLI for the tests that drive it (its own package.json and
 * bun.lock). It is not a workspace package, so `bun install` at the root (and `npm run demo`) never
 * downloads Claude Code's ~360 MB binary; only these tests do.
 */
const FOLDER = resolve(import.meta.dir, "../claude-code-cli");

/**
 * The path of the real `claude` CLI, installed (from the pinned lockfile) the first time a test asks
 * for it. Never a skip: when it cannot be installed the test file fails, saying why.
 */
export function claudeCodeCli(): string {
  const binary = join(FOLDER, "node_modules/.bin/claude");
  if (existsSync(binary)) return binary;
  const install = Bun.spawnSync([process.execPath, "install", "--frozen-lockfile"], {
    cwd: FOLDER,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  if (install.exitCode !== 0 || !existsSync(binary)) {
    throw new Error(
      `could not install the claude CLI the tests need (bun install --frozen-lockfile in ${FOLDER}, exit ${install.exitCode}): ${install.stderr.toString()}`,
    );
  }
  return binary;
}

/**
 * Which requests of the real `claude` CLI take the fake Messages API's scripted replies: Claude Code's
 * agent loop sends its tools; side requests (titles, quota checks) get the default reply.
 */
export function isClaudeAgentTurn(request: FakeRequestView): boolean {
  const tools = (request.body as { tools?: unknown[] } | null)?.tools;
  return Array.isArray(tools) && tools.length > 0;
}

/**
 * The environment that points the real `claude` CLI at the fake Messages API at `baseUrl`: a made-up
 * key, its config in a folder beside the temp home `home`, and nothing sent anywhere else.
 */
export function claudeCodeEnv(baseUrl: string, home: string): Record<string, string> {
  return {
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: "test-key-not-secret",
    CLAUDE_CONFIG_DIR: join(home, "..", "claude-config"),
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_ERROR_REPORTING: "1",
  };
}

/** What a test of the real `claude` CLI runs against: its temp home, the fake Messages API, the environment. */
export interface ClaudeCodeHome {
  temp: TempHome;
  /** Takes Claude Code's agent turns (isClaudeAgentTurn) from its script. */
  server: FakeAnthropicServer;
  /** claudeCodeEnv for this test's fake and home, with the file's extra variables: give it to what runs `claude`. */
  env(): Record<string, string>;
}

/**
 * A fresh temp home and fake Messages API for each test of the file, closed and removed after it. The
 * objects returned stand for the current test's home and fake.
 */
export function useClaudeCodeHome(extraEnv: Record<string, string> = {}): ClaudeCodeHome {
  let temp: TempHome | undefined;
  let server: FakeAnthropicServer | undefined;
  beforeEach(() => {
    temp = createTempHome();
    server = startFakeAnthropicServer({ isScripted: isClaudeAgentTurn });
  });
  afterEach(async () => {
    await server?.close();
    temp?.cleanup();
    temp = undefined;
    server = undefined;
  });
  const current = {
    temp: currentWhileTestRuns(() => temp, "the temp home"),
    server: currentWhileTestRuns(() => server, "the fake Messages API"),
  };
  return { ...current, env: () => ({ ...claudeCodeEnv(current.server.url, current.temp.home), ...extraEnv }) };
}
