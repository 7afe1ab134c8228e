import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { stepResultSchema } from "@uwf/protocol";
import { createTempHome, runExampleArgs, type TempHome } from "../helpers/temp-home.ts";

// The README runs the compiled binary, which the build changes (bundled, bytecode, commander's
// node:util import replaced): it must behave exactly like the sources the other tests run.

const BUILD_SCRIPT = resolve(import.meta.dir, "../../scripts/build.ts");

let buildDirectory: string;
let compiled: TempHome;
let sources: TempHome;
beforeAll(() => {
  buildDirectory = mkdtempSync(join(tmpdir(), "uwf-build-"));
  const binary = join(buildDirectory, "uwf");
  const build = Bun.spawnSync([process.execPath, BUILD_SCRIPT, "--outfile", binary], { stderr: "pipe" });
  if (build.exitCode !== 0) throw new Error(`the build failed: ${build.stderr.toString()}`);
  compiled = createTempHome({ binary });
  sources = createTempHome();
});
afterAll(() => {
  compiled.cleanup();
  sources.cleanup();
  rmSync(buildDirectory, { recursive: true, force: true });
});

describe("the compiled binary", () => {
  it("prints the same version, help and usage errors as the sources", async () => {
    for (const args of [["--version"], ["--help"], ["step", "--help"], ["cas", "--help"], ["stpe"], ["step"]]) {
      const [fromBinary, fromSources] = await Promise.all([compiled.uwf(args), sources.uwf(args)]);
      const seen = ({ exitCode, stdout, stderr }: typeof fromBinary) => ({ args, exitCode, stdout, stderr });
      expect(seen(fromBinary)).toEqual(seen(fromSources));
    }
  });

  it("runs a workflow to its end and reads it back like the sources", async () => {
    const args = runExampleArgs("review-loop", "Fix the login redirect bug");
    const runs = await Promise.all([compiled.uwf(args), sources.uwf(args)]);
    const [fromBinary, fromSources] = runs.map((run) => {
      expect(run.exitCode).toBe(0);
      return stepResultSchema.parse(run.json());
    });
    expect(fromBinary?.status).toBe("ended");
    const outline = (run: typeof fromBinary) =>
      run?.steps.map((step) => [step.number, step.role, step.status, step.output]);
    expect(outline(fromBinary)).toEqual(outline(fromSources));

    const read = await compiled.uwf(["read", fromBinary?.thread as string]);
    expect(read.exitCode).toBe(0);
    expect(read.stdout).toContain("Fix the login redirect bug");
    const list = await compiled.uwf(["list"]);
    expect(list.stdout).toContain(fromBinary?.thread as string);
    expect(list.stdout).toContain("ended");
  });

  it("serves the web UI: its page and the bundle the page loads, built into the binary", async () => {
    const ui = compiled.spawn(["ui", "--port", "0", "--jsonl"]);
    const reader = (ui.stdout as ReadableStream<Uint8Array>).getReader();
    const { value } = await reader.read();
    const url = new URL((JSON.parse(new TextDecoder().decode(value).split("\n")[0] as string) as { url: string }).url);
    const page = await fetch(`${url.origin}/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const files = [...html.matchAll(/(?:src|href)="(\/[^"]+)"/g)].map((match) => match[1] as string);
    expect(files.some((file) => file.endsWith(".js"))).toBe(true);
    for (const file of files)
      expect({ file, status: (await fetch(`${url.origin}${file}`)).status }).toEqual({ file, status: 200 });
    ui.kill("SIGTERM");
    expect(await ui.exited).toBe(0);
  });
});
