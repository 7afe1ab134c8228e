#!/usr/bin/env bun
import { VERSION } from "./version.ts";

/**
 * The one error boundary: every error becomes one line on stderr (or a JSON document) and a
 * documented exit code. Everything else is imported on demand: every step is a new process,
 * and `uwf --version` should cost little more than starting the runtime.
 */
async function main(): Promise<void> {
  const raw = process.argv.slice(2);
  if (raw.length === 1 && (raw[0] === "--version" || raw[0] === "-V")) {
    // Bun.write, not process.stdout: creating that stream would triple this command's cost.
    await Bun.write(Bun.stdout, `${VERSION}\n`);
    return;
  }
  const { trace } = await import("./trace.ts");
  trace("started");
  process.once("exit", () => trace("exit"));
  const { normalizeArgv } = await import("./normalize-argv.ts");
  const argv = normalizeArgv(raw);
  try {
    const { runCli } = await import("./pipeline/run-cli.ts");
    process.exitCode = await runCli(argv);
  } catch (error) {
    const { reportError } = await import("./pipeline/report-error.ts");
    process.exitCode = reportError(error, argv.includes("--json") || argv.includes("--jsonl"));
  }
}

await main();
