import { describe, expect, it } from "bun:test";
import { join } from "node:path";
import { FIXTURES, useTempHome } from "../../helpers/temp-home.ts";

const FAN_OUT = join(FIXTURES, "workflows/fan-out-files.yaml");

/** fan-out-files.yaml's roles: a splitter listing 40 files with long paths, a fixer, a reducer. */
const AGENT = [
  "cat >/dev/null",
  'case "$UWF_ROLE" in',
  `  splitter) printf -- '---\\nfiles:\\n'; i=0; while [ $i -lt 40 ]; do printf '  - path: src/some/deeply/nested/folder/file-%03d.ts\\n' $i; i=$((i + 1)); done; printf -- '---\\nMany.\\n' ;;`,
  "  fixer) printf -- '---\\nfixed: true\\nsummary: ok\\n---\\nFixed.\\n' ;;",
  "  *) printf -- '---\\nsummary: all\\n---\\nDone.\\n' ;;",
  "esac",
].join("\n");

const temp = useTempHome({
  setUp: (home) =>
    home.writeConfig(
      ["agents:", "  many:", "    command: sh", `    args: ["-c", ${JSON.stringify(AGENT)}]`].join("\n"),
    ),
});

describe("a fan-out into 40 branches", () => {
  it("is one short line per step (its first keys, then a count), in plain output (-q leaves it out)", async () => {
    // No step limit: the 40 branches' steps count against it.
    const started = await temp.uwf(["start", FAN_OUT, "-p", "Fix everything", "--max-steps", "0", "--json"]);
    const thread = started.json<{ thread: string }>().thread;
    for (const quiet of [[], ["-q"]]) {
      const step = await temp.uwf(["step", thread, "--agent", "many", ...quiet]);
      expect(step.exitCode).toBe(0);
      const lines = step.stdout.trim().split("\n");
      expect(lines.every((line) => line.length < 300)).toBe(true);
      if (quiet.length > 0) {
        // -q leaves step lines out: only where the thread stands is printed.
        expect(step.stdout).not.toContain("fanned out");
        expect(step.stderr).toBe("");
      } else {
        expect(lines).toContainEqual(
          expect.stringMatching(/#1 fanned out into 40 branches: .+ and 32 more \(join reducer, all-settled\)$/),
        );
      }
    }
    // To its end: the join's line counts the branches by status.
    const all = await temp.uwf(["step", thread, "--all", "--agent", "many", "--parallel", "8"]);
    expect(all.exitCode).toBe(0);
    expect(all.stdout).toContain("40 branches joined: 40 ended");
    expect(all.stdout.split("\n").every((line) => line.length < 300)).toBe(true);
    const json = await temp.uwf(["log", thread, "--json"]);
    expect(JSON.stringify(json.json()).length).toBeGreaterThan(1500);
  }, 120_000);
});
