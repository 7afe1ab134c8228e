import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

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
