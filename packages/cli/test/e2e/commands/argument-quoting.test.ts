import { describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { LINEAR, SCRIPTED, useTempHome } from "../../helpers/temp-home.ts";

/** Bad arguments the way they reach uwf from scripts: odd characters, odd values, a reader that goes away. */

const temp = useTempHome();
/** An id as a script may pass one by mistake: two lines. */
const TWO_LINES = "01ABC\nDEF";

describe("uwf's errors about its arguments", () => {
  it("quote an id holding a newline on one line, escaped", async () => {
    const thread = await temp.startThread(LINEAR, "Quote me");
    const cases: string[][] = [
      ["show", TWO_LINES],
      ["log", TWO_LINES],
      ["step", TWO_LINES],
      ["fork", TWO_LINES],
      ["diff", thread, TWO_LINES],
      ["eval", "show", TWO_LINES],
      ["schedule", "show", TWO_LINES],
      ["cas", "get", TWO_LINES],
      ["workflow", "show", TWO_LINES],
      ["start", TWO_LINES, "-p", "x"],
    ];
    for (const args of cases) {
      const run = await temp.uwf(args);
      expect({ args, exitCode: run.exitCode === 0 }).toEqual({ args, exitCode: false });
      expect({ args, lines: run.stderr.trimEnd().split("\n") }).toEqual({ args, lines: [expect.any(String)] });
      expect(run.stderr).toContain(JSON.stringify(TWO_LINES));
    }
  }, 60_000);

  it("refuse a trace export --endpoint that is no URL as usage (exit 2)", async () => {
    const thread = await temp.startThread(LINEAR, "Trace me");
    const run = await temp.uwf(["trace", "export", thread, "--endpoint", "not a url"]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe(
      'uwf: --endpoint "not a url" is not an http:// or https:// URL (an OTLP/HTTP collector\'s base, such as http://localhost:4318)\n',
    );
  });

  it("refuse a --timeout under a millisecond as usage, and take one of a millisecond", async () => {
    const thread = await temp.startThread(LINEAR, "Time me");
    for (const args of [
      ["step", thread, "--timeout", "0.0001"],
      ["run", LINEAR, "-p", "x", "--timeout", "0.0004"],
      ["wait", thread, "--timeout", "0.0001"],
    ]) {
      const run = await temp.uwf(args);
      expect({ args, exitCode: run.exitCode }).toEqual({ args, exitCode: 2 });
      expect(run.stderr).toContain("expected a number of seconds of at least 0.001 (1 ms)");
    }
    expect((await temp.showThread(thread)).stepCount).toBe(0);
    const stepped = await temp.uwf(["step", thread, "--timeout", "0.001", "--agent", SCRIPTED]);
    // A scripted agent answers at once, within any time limit.
    expect(stepped.exitCode).toBe(0);
  });

  it("end quietly when the reader of --help goes away (`uwf --help | head`)", async () => {
    for (const args of ["--help", "workflow --help", "help"]) {
      const errors = join(temp.work, "help.err");
      const code = join(temp.work, "help.code");
      // `true` reads nothing and exits at once, long before uwf has started and writes its help.
      const run = await temp.shell(`{ $UWF ${args} 2>"${errors}"; echo $? >"${code}"; } | true`);
      expect(run.exitCode).toBe(0);
      expect({ args, stderr: readFileSync(errors, "utf8") }).toEqual({ args, stderr: "" });
      expect(["0", "141"]).toContain(readFileSync(code, "utf8").trim());
    }
  });
});
