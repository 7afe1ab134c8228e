import { afterAll, afterEach, describe, expect, it } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isProcessAlive } from "@uwf/cas";
import { createTemporaryDirectory, waitFor } from "@uwf/cas/test";
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
});
