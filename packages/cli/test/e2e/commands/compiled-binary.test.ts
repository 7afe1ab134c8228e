import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { stepResultSchema } from "@uwf/protocol";
import { createTempHome, LINEAR, runExampleArgs, SCRIPTED, type TempHome } from "../../helpers/temp-home.ts";
import { startUi } from "../../helpers/ui-browser.ts";

// The README runs the compiled binary, which the build changes (bundled, bytecode, commander's
// node:util import replaced): it must behave exactly like the sources the other tests run.

const BUILD_SCRIPT = resolve(import.meta.dir, "../../../scripts/build.ts");

let buildDirectory: string;
let binary: string;
let compiled: TempHome;
let sources: TempHome;
beforeAll(() => {
  buildDirectory = mkdtempSync(join(tmpdir(), "uwf-build-"));
  // npm test builds one for the whole run with the same script; a run of this file alone builds its own.
  binary = process.env.UWF_TEST_BINARY || join(buildDirectory, "uwf");
  if (binary.startsWith(buildDirectory)) {
    const build = Bun.spawnSync([process.execPath, BUILD_SCRIPT, "--outfile", binary], { stderr: "pipe" });
    if (build.exitCode !== 0) throw new Error(`the build failed: ${build.stderr.toString()}`);
  }
  compiled = createTempHome({ binary });
  sources = createTempHome({ sources: true });
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

  // The frontend is bundled into the executable: nothing is read from the sources or fetched at run time.
  it("serves the web UI's page and its scripts from inside the executable", async () => {
    const ui = await startUi(compiled);
    try {
      const page = await fetch(`${ui.origin}/`);
      expect(page.status).toBe(200);
      const html = await page.text();
      const assets = [...html.matchAll(/(?:src|href)="(\/[^"]+\.(?:js|css|svg))"/g)].map((match) => match[1] as string);
      expect(assets.some((asset) => asset.endsWith(".js"))).toBe(true);
      for (const asset of assets) {
        const response = await fetch(`${ui.origin}${asset}`);
        expect({ asset, status: response.status }).toEqual({ asset, status: 200 });
        expect((await response.text()).length).toBeGreaterThan(0);
      }
      const list = await fetch(`${ui.origin}/api/threads`);
      expect(list.status).toBe(200);
      expect(((await list.json()) as { threads: unknown[] }).threads).toBeArray();
    } finally {
      expect(await ui.stop()).toBe(0);
    }
  });

  // The MCP SDK is a chunk of the executable that only `uwf mcp` loads.
  it("serves uwf mcp to the MCP SDK's client", async () => {
    const transport = new StdioClientTransport({
      command: binary,
      args: ["mcp"],
      cwd: compiled.work,
      env: { ...(process.env as Record<string, string>), UWF_HOME: compiled.home },
      stderr: "pipe",
    });
    const client = new Client({ name: "uwf-e2e", version: "1.0.0" });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("step");
      // A client names a registered workflow, never a file.
      expect((await compiled.uwf(["workflow", "add", LINEAR])).exitCode).toBe(0);
      const ran = await client.callTool({
        name: "run",
        arguments: { workflow: "linear", prompt: "Go", agent: SCRIPTED },
      });
      const result = stepResultSchema.parse(ran.structuredContent);
      expect(result.status).toBe("ended");
      const shown = await compiled.showThread(result.thread);
      expect([shown.status, shown.stepCount, shown.head]).toEqual(["ended", 2, result.head]);
    } finally {
      await client.close();
    }
  });
});
