import { afterAll, afterEach, describe, expect, it } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isProcessAlive } from "@uwf/cas";
import { createTemporaryDirectory, waitFor } from "@uwf/cas/test";
import { McpServerFailedError } from "../errors/mcp-server-failed-error.ts";
import { ProcessGroupTransport } from "./process-group-transport.ts";

const directory = createTemporaryDirectory("uwf-mcp-transport-");
const daemonPidFile = join(directory.path, "daemon.pid");
afterAll(() => directory.remove());
afterEach(() => {
  try {
    process.kill(Number(readFileSync(daemonPidFile, "utf8")), "SIGKILL");
  } catch {}
});

describe("ProcessGroupTransport", () => {
  it.if(process.platform === "linux")(
    "stops with its server what the server's start script daemonised (setsid, a double fork, output elsewhere)",
    async () => {
      // A start script that daemonises a helper, then serves on stdio (cat stands for the server).
      const script = [
        `setsid sh -c 'sleep 300 & echo $! >"${daemonPidFile}.tmp" && mv "${daemonPidFile}.tmp" "${daemonPidFile}"' </dev/null >/dev/null 2>&1 &`,
        "exec cat",
      ].join("\n");
      const transport = new ProcessGroupTransport({
        server: "daemoniser",
        command: "sh",
        args: ["-c", script],
        cwd: directory.path,
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
        killGraceMs: 500,
      });
      await transport.start();
      await waitFor(() => existsSync(daemonPidFile), { what: "the start script daemonising its helper" });
      const daemon = Number(readFileSync(daemonPidFile, "utf8"));
      expect(isProcessAlive(daemon)).toBe(true);
      await transport.close();
      expect(isProcessAlive(daemon)).toBe(false);
    },
  );

  it("fails to start a command that does not exist with an McpServerFailedError naming the server", async () => {
    const transport = new ProcessGroupTransport({
      server: "ghost",
      command: "uwf-no-such-mcp-server",
      args: [],
      cwd: directory.path,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      killGraceMs: 200,
    });
    const error = await transport.start().then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(McpServerFailedError);
    const failure = error as McpServerFailedError;
    expect(failure.code).toBe("mcp-server-failed");
    expect(failure.data).toMatchObject({ server: "ghost", field: null });
    expect(failure.message).toStartWith('MCP server "ghost": could not start uwf-no-such-mcp-server: ');
  });

  it("refuses to send to a server that has exited, naming it", async () => {
    const transport = new ProcessGroupTransport({
      server: "brief",
      command: "true",
      args: [],
      cwd: directory.path,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      killGraceMs: 200,
    });
    const closed = new Promise<void>((resolve) => {
      transport.onclose = resolve;
    });
    await transport.start();
    await closed;
    const error = await transport.send({ jsonrpc: "2.0", method: "ping", id: 1 }).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(McpServerFailedError);
    expect((error as McpServerFailedError).data).toEqual({ server: "brief", field: null, problem: "it has exited" });
    expect((error as McpServerFailedError).message).toBe('MCP server "brief": it has exited');
    await transport.close();
  });
});
