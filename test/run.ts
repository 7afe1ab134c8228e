/**
 * `npm test`: every test file of the workspace at once (`bun test --parallel`), the slowest files first
 * (their durations in test/timings.json), with what the tests would otherwise each make for themselves
 * made once for the run:
 * - one PostgreSQL server for every file that needs one, unless `UWF_TEST_POSTGRES_URL` already names one
 *   (under --parallel each file runs in a fresh global, so each would start its own);
 * - the compiled uwf, built from the sources into a temp folder and named by `UWF_TEST_BINARY`: the e2e
 *   tests start thousands of uwf processes, and the binary starts several times cheaper than the sources;
 * - the real `claude` CLI that two test files drive, installed once here rather than by both at once.
 * Arguments are handed on to bun test (a path, `--parallel=1`, `-t NAME`); its exit code is this one's.
 */
import { chmodSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, constants, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startTestPostgres } from "../packages/cas/src/testing/start-test-postgres.ts";

const ROOT = resolve(import.meta.dir, "..");
const TIMINGS = join(ROOT, "test/timings.json");
/** Most of a test's time is spent waiting on the processes it starts, so two files a core keep the cores busy. */
const WORKERS = Math.max(2, 2 * availableParallelism());

const given = process.argv.slice(2);
const started = performance.now();
const buildDirectory = mkdtempSync(join(tmpdir(), "uwf-test-build-"));
// The tests of missing permissions run the binary as an unprivileged user, who must reach it.
chmodSync(buildDirectory, 0o755);
try {
  const [postgresUrl, binary] = await Promise.all([
    startTestPostgres().then((server) => server.url),
    buildUwf(),
    installClaudeCodeCli(),
  ]);
  const args = [
    "test",
    "--timeout",
    "60000",
    ...(given.some((arg) => arg.startsWith("--parallel")) ? [] : [`--parallel=${WORKERS}`]),
    `--timings=${TIMINGS}`,
    ...given,
  ];
  console.error(`test/run.ts: bun ${args.join(" ")} (set-up ${seconds(performance.now() - started)})`);
  const tests = Bun.spawn([process.execPath, ...args], {
    cwd: ROOT,
    env: { ...process.env, UWF_TEST_POSTGRES_URL: postgresUrl, UWF_TEST_BINARY: binary },
    stdio: ["inherit", "inherit", "inherit"],
  });
  const exitCode = await tests.exited;
  // Killed by a signal: the shell's 128 + its number, so a caller can tell.
  const signal = tests.signalCode;
  process.exitCode = signal === null ? exitCode : 128 + (constants.signals[signal as NodeJS.Signals] ?? 0);
} finally {
  rmSync(buildDirectory, { recursive: true, force: true });
}

/** The release build (packages/cli/scripts/build.ts) of the current sources, into the temp folder. */
async function buildUwf(): Promise<string> {
  const binary = join(buildDirectory, "uwf");
  const build = Bun.spawn([process.execPath, join(ROOT, "packages/cli/scripts/build.ts"), "--outfile", binary], {
    stdout: "inherit",
    stderr: "pipe",
  });
  const [stderr, exitCode] = await Promise.all([new Response(build.stderr).text(), build.exited]);
  if (exitCode !== 0) throw new Error(`the build of uwf for the tests failed (exit ${exitCode}):\n${stderr}`);
  return binary;
}

/** What packages/cli/test/helpers/claude-code-cli.ts installs on first use, when it is not there yet. */
async function installClaudeCodeCli(): Promise<void> {
  const folder = join(ROOT, "packages/cli/test/claude-code-cli");
  if (existsSync(join(folder, "node_modules/.bin/claude"))) return;
  const install = Bun.spawn([process.execPath, "install", "--frozen-lockfile"], {
    cwd: folder,
    stdin: "ignore",
    stdout: "ignore",
    stderr: "pipe",
  });
  const [stderr, exitCode] = await Promise.all([new Response(install.stderr).text(), install.exited]);
  if (exitCode !== 0) throw new Error(`could not install the claude CLI the tests need (exit ${exitCode}):\n${stderr}`);
}

function seconds(milliseconds: number): string {
  return `${(milliseconds / 1000).toFixed(1)} s`;
}
