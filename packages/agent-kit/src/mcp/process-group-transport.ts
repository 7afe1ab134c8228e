import { setTimeout as sleep } from "node:timers/promises";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { isProcessGroupAlive } from "@uwf/cas";
import { InternalError, messageOf } from "@uwf/protocol";
import { McpServerFailedError } from "../errors/mcp-server-failed-error.ts";
import {
  LAUNCH_TAG_VARIABLE,
  type LaunchOrigin,
  launchOriginOf,
  newLaunchTag,
  stopTaggedProcesses,
} from "../process/stop-tagged-processes.ts";
import { TailBuffer } from "../process/tail-buffer.ts";

export interface ProcessGroupTransportOptions {
  /** The server's name in the agent's `mcpServers`: its errors name it. */
  server: string;
  command: string;
  args: readonly string[];
  cwd: string;
  /** The server's whole environment. */
  env: Record<string, string>;
  /** Milliseconds between asking the server to stop and SIGKILL to its group. */
  killGraceMs: number;
  /** Told the server's pid (its process group's id) as soon as it has started. */
  onSpawn?: (pid: number) => void;
}

const GROUP_POLL_MS = 20;
/** How long stopping waits for a SIGKILLed group to be gone before it returns anyway. */
const KILL_WAIT_MS = 2_000;

/**
 * MCP over the stdio of a server uwf starts as the leader of its own session and process group. The
 * SDK's `StdioClientTransport` signals only the process it spawned, so a server started through a
 * wrapper (`npx`, `sh -c`, `uv run`) would leave its real process running; this one stops the whole
 * group: stdin closed (a server's cue to exit), SIGTERM to the group, then SIGKILL after the grace.
 * Bun's spawn, as `runProcessGroup`: fast, and `detached` calls setsid.
 */
export class ProcessGroupTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  private subprocess: Bun.Subprocess<"pipe", "pipe", "pipe"> | null = null;
  /** The server's launch tag, which what it starts inherits: found and stopped with it (stopTaggedProcesses). */
  private readonly tag = newLaunchTag();
  /** When the server started (readProcessStart): what it started came after. */
  private startedAt: LaunchOrigin | null = null;
  private readonly readBuffer = new ReadBuffer();
  private readonly stderr = new TailBuffer(2_048);
  private stopping: Promise<void> | null = null;
  /** Settles when the server's stderr has been read to its end. */
  private stderrRead: Promise<void> = Promise.resolve();

  private readonly options: ProcessGroupTransportOptions;

  constructor(options: ProcessGroupTransportOptions) {
    this.options = options;
  }

  /** The server's pid, which is its process group's id; null before it started. */
  get pid(): number | null {
    return this.subprocess?.pid ?? null;
  }

  /** The last line the server wrote to stderr: why it failed to start, usually. */
  lastStderrLine(): string {
    const lines = this.stderr.toString().trim().split("\n");
    return (lines.at(-1) ?? "").trim();
  }

  /** "exit code 1" or "signal SIGKILL" once the server has exited, else null. */
  exitDescription(): string | null {
    const subprocess = this.subprocess;
    if (subprocess === null || (subprocess.exitCode === null && subprocess.signalCode === null)) return null;
    return subprocess.signalCode === null ? `exit code ${subprocess.exitCode}` : `signal ${subprocess.signalCode}`;
  }

  /**
   * How the server exited (`exitDescription`), once it has and its stderr is read to the end, waiting
   * at most `milliseconds`; null when it is still running then. For a failed connect: a server that
   * exits at once makes the first write fail (EPIPE) before its exit is seen.
   */
  async exitedWithin(milliseconds: number): Promise<string | null> {
    const subprocess = this.subprocess;
    if (subprocess === null) return null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, milliseconds);
    });
    await Promise.race([Promise.all([subprocess.exited, this.stderrRead]), timeout]);
    clearTimeout(timer);
    return this.exitDescription();
  }

  async start(): Promise<void> {
    if (this.subprocess !== null) throw new InternalError("the server is already started");
    let subprocess: Bun.Subprocess<"pipe", "pipe", "pipe">;
    try {
      subprocess = Bun.spawn([this.options.command, ...this.options.args], {
        cwd: this.options.cwd,
        env: { ...this.options.env, [LAUNCH_TAG_VARIABLE]: this.tag },
        stdin: "pipe",
        stdout: "pipe",
        stderr: "pipe",
        detached: true,
      });
    } catch (error) {
      throw new McpServerFailedError(
        this.options.server,
        null,
        `could not start ${this.options.command}: ${messageOf(error)}`,
      );
    }
    this.subprocess = subprocess;
    this.startedAt = launchOriginOf(subprocess.pid);
    this.options.onSpawn?.(subprocess.pid);
    // A uwf that exits without closing the run (a crash) still takes the server with it.
    killOnExit(subprocess.pid);
    void this.readMessages(subprocess.stdout);
    this.stderrRead = this.readStderr(subprocess.stderr);
    subprocess.exited.then(() => this.onclose?.());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const subprocess = this.subprocess;
    if (subprocess === null || subprocess.exitCode !== null || subprocess.signalCode !== null) {
      throw new McpServerFailedError(this.options.server, null, "it has exited");
    }
    subprocess.stdin.write(serializeMessage(message));
    await subprocess.stdin.flush();
  }

  /** Stops the server's whole process group; safe to call more than once. */
  close(): Promise<void> {
    this.stopping ??= this.stop();
    return this.stopping;
  }

  private async stop(): Promise<void> {
    const subprocess = this.subprocess;
    if (subprocess === null) return;
    const group = subprocess.pid;
    try {
      subprocess.stdin.end();
    } catch {
      // Its stdin is already closed: it exited.
    }
    const graceMs = this.options.killGraceMs;
    // A server exits when its input ends; what it started may not, so the group is signalled anyway.
    await waitForGroupToEnd(group, Math.min(graceMs, 500));
    signalGroup(group, "SIGTERM");
    await waitForGroupToEnd(group, graceMs);
    signalGroup(group, "SIGKILL");
    await waitForGroupToEnd(group, KILL_WAIT_MS);
    // What it started outside its group (a start script's `setsid server &`, a daemon's double fork).
    await stopTaggedProcesses(this.tag, graceMs, this.startedAt);
    // Reaped, so that no zombie of it is left either (what it started is reaped by init). The timer is
    // cleared after: a pending one would keep uwf from exiting when the step is done.
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([subprocess.exited, new Promise((resolve) => (timer = setTimeout(resolve, KILL_WAIT_MS)))]);
    clearTimeout(timer);
    liveGroups.delete(group);
    this.readBuffer.clear();
  }

  private async readMessages(stream: ReadableStream<Uint8Array>): Promise<void> {
    try {
      for await (const chunk of stream) {
        this.readBuffer.append(Buffer.from(chunk));
        for (;;) {
          let message: JSONRPCMessage | null;
          try {
            message = this.readBuffer.readMessage();
          } catch (error) {
            // A line that is not JSON-RPC (a server's stray log line): reported, and reading goes on.
            this.onerror?.(error instanceof Error ? error : new Error(String(error)));
            continue;
          }
          if (message === null) break;
          this.onmessage?.(message);
        }
      }
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private async readStderr(stream: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of stream) this.stderr.append(decoder.decode(chunk, { stream: true }));
    } catch {
      // The server's stderr is only kept for error messages.
    }
  }
}

/** The groups of the servers running in this process; one exit handler for all (a worker runs many steps). */
const liveGroups = new Set<number>();
let exitHandlerInstalled = false;

function killOnExit(group: number): void {
  liveGroups.add(group);
  if (exitHandlerInstalled) return;
  exitHandlerInstalled = true;
  process.on("exit", () => {
    for (const live of liveGroups) signalGroup(live, "SIGKILL");
  });
}

async function waitForGroupToEnd(group: number, milliseconds: number): Promise<void> {
  const deadline = Date.now() + milliseconds;
  while (isProcessGroupAlive(group) && Date.now() < deadline) await sleep(GROUP_POLL_MS);
}

function signalGroup(group: number, signal: NodeJS.Signals): void {
  // kill(-0) and kill(-1) would reach uwf's own group or every process it may signal.
  if (group <= 1) return;
  try {
    process.kill(-group, signal);
  } catch {
    // Already gone.
  }
}
