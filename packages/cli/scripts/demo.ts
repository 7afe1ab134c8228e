/**
 * The README's main job: runs examples/ship-change.yaml to its end with the compiled binary,
 * offline (scripted agent for the model roles, the shell agent for the checks), in a project
 * home `.uwf/` at the repository root, then prints the transcript.
 */
import { resolve } from "node:path";

const root = resolve(import.meta.dir, "../../..");
const uwf = resolve(root, "packages/cli/dist/uwf");

function run(args: string[]): string {
  const result = Bun.spawnSync([uwf, ...args], { cwd: root, stdin: "ignore", stdout: "pipe", stderr: "inherit" });
  if (result.exitCode !== 0) {
    console.error(`uwf ${args.join(" ")} exited with ${result.exitCode}`);
    process.exit(result.exitCode ?? 1);
  }
  return result.stdout.toString();
}

run(["init"]);
const started = JSON.parse(
  run([
    "run",
    "examples/ship-change.yaml",
    "-p",
    "Add a --dry-run flag to the export command",
    "--agent",
    "scripted:examples/ship-change.scenario.yaml",
    "--json",
  ]),
) as { thread: string; status: string };
process.stdout.write(run(["read", started.thread]));
console.error(
  `\nthread ${started.thread} ${started.status}; explore it with: packages/cli/dist/uwf log ${started.thread} (or on a web page: packages/cli/dist/uwf ui)`,
);
