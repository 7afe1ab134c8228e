import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import {
  errorResultSchema,
  listResultSchema,
  messageOf,
  shownThreadSchema,
  startResultSchema,
  stepResultSchema,
} from "@uwf/protocol";
import { quoteForShell, runProcess, UWF_COMMAND } from "../../helpers/run-process.ts";
import { createTempHome, LINEAR, SCRIPTED, type TempHome, type UwfRun } from "../../helpers/temp-home.ts";

/**
 * What the machine can refuse uwf: a full disk, a read-only mount, missing permissions, a ref store
 * another process keeps locked, a closed stdout, input files that are not there. Each is one line
 * on stderr with a documented exit code, never a stack trace. Full disks and read-only mounts are
 * real: a small tmpfs and a read-only bind mount, where this machine lets the tests mount.
 */

const BIN = UWF_COMMAND.at(-1) as string;

/** Why mounting is impossible here (not root, no mount, a container that refuses), or null when it works. */
const mountRefusal = probeMounting();
/** Why no process can run as an unprivileged user here, or null when it can: root ignores file permissions. */
const unprivilegedRefusal = probeUnprivileged();

function probeMounting(): string | null {
  if (process.platform !== "linux") return "mounts are tested on Linux only";
  const target = mkdtempSync(join(tmpdir(), "uwf-mount-probe-"));
  try {
    const mounted = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", target], { stderr: "pipe" });
    if (mounted.exitCode !== 0)
      return `mount refused: ${mounted.stderr.toString().trim() || `exit ${mounted.exitCode}`}`;
    Bun.spawnSync(["umount", target]);
    return null;
  } catch (error) {
    return `mount unavailable: ${messageOf(error)}`;
  } finally {
    rmSync(target, { recursive: true, force: true });
  }
}

function probeUnprivileged(): string | null {
  if (process.getuid?.() !== 0) return null;
  try {
    const drop = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"];
    if (Bun.spawnSync([...drop, "true"]).exitCode !== 0) {
      return "running as root, and setpriv cannot drop to an unprivileged user";
    }
    // A checkout inside a folder only root may enter (`mktemp -d` makes them 0700) is out of its reach.
    if (Bun.spawnSync([...drop, "test", "-r", BIN]).exitCode !== 0) {
      return `running as root, and an unprivileged user cannot read ${BIN}`;
    }
    return null;
  } catch {
    return "running as root, and setpriv is not installed";
  }
}

if (mountRefusal !== null) console.warn(`environment-failures: skipping the mount tests: ${mountRefusal}`);
if (unprivilegedRefusal !== null)
  console.warn(`environment-failures: skipping the permission tests: ${unprivilegedRefusal}`);

let temp: TempHome;
/** Mount points to undo after each test, newest first. */
let mounts: string[];

beforeEach(() => {
  temp = createTempHome();
  mounts = [];
});
afterEach(() => {
  for (const target of mounts.reverse()) {
    if (Bun.spawnSync(["umount", target]).exitCode !== 0) Bun.spawnSync(["umount", "-l", target]);
  }
  temp.cleanup();
});

function mount(args: string[], target: string): void {
  const result = Bun.spawnSync(["mount", ...args, target], { stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`mount ${args.join(" ")} ${target}: ${result.stderr.toString()}`);
  mounts.push(target);
}

/** Makes `folder` read-only where it is: a bind mount onto itself, remounted read-only. */
function mountReadOnly(folder: string): void {
  mount(["--bind", folder], folder);
  const result = Bun.spawnSync(["mount", "-o", "remount,ro,bind", folder], { stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`remount ro ${folder}: ${result.stderr.toString()}`);
}

/** A small tmpfs at `folder`, to be filled. */
function mountSmallDisk(folder: string): void {
  mkdirSync(folder, { recursive: true });
  mount(["-t", "tmpfs", "-o", "size=1m", "tmpfs"], folder);
}

/** Fills the file system `folder` is on, with a file the store does not read (not in a shard folder). */
function fill(folder: string): void {
  Bun.spawnSync(["dd", "if=/dev/zero", `of=${join(folder, "filler")}`, "bs=64k"], { stderr: "ignore" });
}

/** An agent that leaves a mark when it starts, then answers the planner: whether it ran shows. */
function useMarkingAgent(): string {
  const marker = join(temp.work, "agent-ran");
  const script = join(temp.work, "marking-agent.sh");
  writeFileSync(
    script,
    `#!/bin/sh\ntouch '${marker}'\ncat >/dev/null\nprintf -- '---\\nplan: p\\n---\\nPlanned.\\n'\n`,
  );
  temp.writeConfig(["agents:", "  marking:", "    command: sh", `    args: ["${script}"]`].join("\n"));
  return marker;
}

async function startThread(prompt = "Write hello.txt"): Promise<string> {
  const started = await temp.uwf(["start", LINEAR, "-p", prompt, "--json"]);
  expect(started.exitCode).toBe(0);
  return startResultSchema.parse(started.json()).thread;
}

/** One line on stderr, the `uwf: ` kind, and no stack trace. */
function expectOneLine(run: UwfRun): void {
  expect(run.stderr).toStartWith("uwf: ");
  expect(run.stderr).not.toContain("internal error");
  expect(run.stderr).not.toMatch(/\n\s+at /);
  expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
}

/** A thread run to its end (two steps), with `env` for the home. */
async function steppedThread(env: Record<string, string> = {}): Promise<string> {
  const started = await temp.uwf(["start", LINEAR, "-p", "Write hello.txt", "--json"], { env });
  expect(started.exitCode).toBe(0);
  const thread = startResultSchema.parse(started.json()).thread;
  expect((await temp.uwf(["step", thread, "--all", "--agent", SCRIPTED], { env })).exitCode).toBe(0);
  return thread;
}

/**
 * Every read command reads the store that cannot be written, each saying so once on stderr, and
 * `--json` keeps stderr empty.
 */
async function expectReadsWork(thread: string, uwf: (args: string[]) => Promise<UwfRun>, home = temp.home) {
  const note = `the store in ${home} cannot be written, so it is read read-only: `;
  const reads: Array<[string[], string]> = [
    [["list"], thread],
    [["show", thread], "ended"],
    [["log", thread], "doer"],
    [["read", thread], "## Step 2 · doer"],
    [["cas", "verify"], "0 problem(s)"],
    [["workflow", "list"], "linear"],
  ];
  for (const [args, shown] of reads) {
    const result = await uwf(args);
    expect({ args, exitCode: result.exitCode }).toEqual({ args, exitCode: 0 });
    expect(result.stdout).toContain(shown);
    expect(result.stderr).toStartWith(note);
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
  }
  const listed = await uwf(["list", "--json"]);
  expect(listed.exitCode).toBe(0);
  expect(listed.stderr).toBe("");
  expect(listResultSchema.parse(listed.json()).threads.map((entry) => entry.id)).toEqual([thread]);
}

function errorCode(run: UwfRun): string {
  return errorResultSchema.parse(JSON.parse(run.stderr)).error.code;
}

async function record(thread: string) {
  return shownThreadSchema.parse((await temp.uwf(["show", thread, "--json"])).json());
}

describe.skipIf(mountRefusal !== null)(`a read-only store (mounts: ${mountRefusal ?? "allowed"})`, () => {
  it("uwf step fails before the agent starts, so no reply is lost, and the thread is unchanged", async () => {
    const marker = useMarkingAgent();
    const thread = await startThread();
    const before = await record(thread);
    mountReadOnly(join(temp.home, "objects"));

    const step = await temp.uwf(["step", thread, "--agent", "marking"]);
    expect(step.exitCode).toBe(1);
    expectOneLine(step);
    expect(step.stderr).toContain("the store cannot be written, so no agent was started");
    expect(step.stderr).toContain("read-only file system (EROFS)");
    expect(existsSync(marker)).toBe(false);
    const json = await temp.uwf(["step", thread, "--agent", "marking", "--json"]);
    expect(json.exitCode).toBe(1);
    expect(errorCode(json)).toBe("read-only-file-system");
    expect(existsSync(marker)).toBe(false);
    expect(await record(thread)).toEqual(before);

    // Writable again, the same thread steps at once: the failed steps left no lease behind.
    Bun.spawnSync(["umount", join(temp.home, "objects")]);
    mounts.pop();
    const retried = await temp.uwf(["step", thread, "--agent", "marking", "--json"]);
    expect(retried.exitCode).toBe(0);
    expect(stepResultSchema.parse(retried.json()).steps).toHaveLength(1);
    expect(existsSync(marker)).toBe(true);
  });

  it("uwf cas put and uwf start name the read-only file system", async () => {
    await startThread();
    mountReadOnly(join(temp.home, "objects"));
    const put = await temp.uwf(["cas", "put"], { stdin: '{"a":1}' });
    expect(put.exitCode).toBe(1);
    expectOneLine(put);
    expect(put.stderr).toMatch(/^uwf: cannot write .*objects.*: read-only file system \(EROFS\)\n$/);
    const start = await temp.uwf(["start", LINEAR, "-p", "Another task", "--json"]);
    expect(start.exitCode).toBe(1);
    expect(errorCode(start)).toBe("read-only-file-system");
  });

  it("a whole home on a read-only mount: reads work and say once that it is read-only; writes fail in one line", async () => {
    const thread = await steppedThread();
    mountReadOnly(temp.home);
    await expectReadsWork(thread, temp.uwf);
    for (const args of [
      ["start", LINEAR, "-p", "x"],
      ["cas", "recover"],
      ["step", thread, "--agent", SCRIPTED],
    ]) {
      const result = await temp.uwf(args);
      expect({ args, exitCode: result.exitCode }).toEqual({ args, exitCode: 1 });
      expectOneLine(result);
      expect(result.stderr).toStartWith(`uwf: the ref store ${join(temp.home, "refs.db")} cannot be opened:`);
    }
    expect(errorCode(await temp.uwf(["start", LINEAR, "-p", "x", "--json"]))).toBe("ref-store-unavailable");
    expect(errorCode(await temp.uwf(["cas", "recover", "--json"]))).toBe("ref-store-unavailable");
  }, 60_000);
});

describe.skipIf(mountRefusal !== null)(`a full disk (mounts: ${mountRefusal ?? "allowed"})`, () => {
  it("uwf step fails before the agent starts when objects/ is full, and steps once there is room", async () => {
    const marker = useMarkingAgent();
    const objects = join(temp.home, "objects");
    mountSmallDisk(objects);
    const thread = await startThread();
    const before = await record(thread);
    fill(objects);

    const step = await temp.uwf(["step", thread, "--agent", "marking"]);
    expect(step.exitCode).toBe(1);
    expectOneLine(step);
    expect(step.stderr).toContain("the store cannot be written, so no agent was started");
    expect(step.stderr).toContain("no space left on device (ENOSPC)");
    expect(existsSync(marker)).toBe(false);
    expect(await record(thread)).toEqual(before);

    const put = await temp.uwf(["cas", "put", "--json"], { stdin: JSON.stringify({ big: "x".repeat(10_000) }) });
    expect(put.exitCode).toBe(1);
    expect(errorCode(put)).toBe("no-space");

    rmSync(join(objects, "filler"));
    const retried = await temp.uwf(["step", thread, "--agent", "marking"]);
    expect(retried.exitCode).toBe(0);
    expect(existsSync(marker)).toBe(true);
  });

  it("a whole home on a full disk: the ref store cannot be written, said in one line", async () => {
    // A fresh home on its own small disk, filled after the first thread.
    const home = join(temp.work, "small-home");
    mountSmallDisk(home);
    const first = await temp.uwf(["start", LINEAR, "-p", "First", "--json"], { env: { UWF_HOME: home } });
    expect(first.exitCode).toBe(0);
    fill(home);
    const start = await temp.uwf(["start", LINEAR, "-p", "Second"], { env: { UWF_HOME: home } });
    expect(start.exitCode).toBe(1);
    expectOneLine(start);
    expect(start.stderr).toMatch(/^uwf: (the ref store .* cannot be written|cannot write .*: no space left on device)/);
  });

  it("a whole home on a full disk: reads work and say once that it is read-only; recover fails in one line", async () => {
    const home = join(temp.work, "small-home");
    mountSmallDisk(home);
    const env = { UWF_HOME: home };
    const thread = await steppedThread(env);
    fill(home);
    await expectReadsWork(thread, (args) => temp.uwf(args, { env }), home);
    const recovered = await temp.uwf(["cas", "recover"], { env });
    expect(recovered.exitCode).toBe(1);
    expectOneLine(recovered);
    expect(recovered.stderr).toStartWith(`uwf: the ref store ${join(home, "refs.db")} cannot be written:`);
  }, 60_000);
});

describe.skipIf(unprivilegedRefusal !== null)(
  `missing permissions (unprivileged user: ${unprivilegedRefusal ?? "available"})`,
  () => {
    /** Runs uwf as an unprivileged user when this test runs as root (root ignores file modes). */
    async function uwfUnprivileged(args: string[], stdin?: string): Promise<UwfRun> {
      const drop = process.getuid?.() === 0 ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : [];
      const run = await runProcess([...drop, ...UWF_COMMAND, ...args], {
        cwd: temp.work,
        env: { ...process.env, UWF_HOME: temp.home, NO_COLOR: "1", HOME: temp.work },
        ...(stdin === undefined ? {} : { stdin }),
      });
      return { ...run, json: <Value>() => JSON.parse(run.stdout) as Value };
    }

    /** The temp folders open to the unprivileged user, except objects/, which it may only read. */
    function lockObjects(): void {
      for (const folder of [resolve(temp.home, ".."), temp.home, temp.work]) chmodSync(folder, 0o777);
      for (const name of readdirSync(temp.home)) {
        if (name.startsWith("refs.db")) chmodSync(join(temp.home, name), 0o666);
      }
      const objects = join(temp.home, "objects");
      for (const shard of readdirSync(objects)) chmodSync(join(objects, shard), 0o555);
      chmodSync(objects, 0o555);
    }

    it("uwf step fails before the agent starts when objects/ may not be written", async () => {
      const marker = useMarkingAgent();
      const thread = await startThread();
      const before = await record(thread);
      lockObjects();
      const step = await uwfUnprivileged(["step", thread, "--agent", "marking"]);
      expect(step.exitCode).toBe(1);
      expectOneLine(step);
      expect(step.stderr).toContain("the store cannot be written, so no agent was started");
      expect(step.stderr).toContain("permission denied (EACCES)");
      expect(existsSync(marker)).toBe(false);
      expect(await record(thread)).toEqual(before);
      const put = await uwfUnprivileged(["cas", "put", "--json"], '{"a":1}');
      expect(put.exitCode).toBe(1);
      expect(errorCode(put)).toBe("permission-denied");
    });

    it("a home the user may only read: reads work and say once that it is read-only; recover fails in one line", async () => {
      const thread = await steppedThread();
      for (const folder of [resolve(temp.home, ".."), temp.work]) chmodSync(folder, 0o777);
      chmodSync(join(temp.home, "refs.db"), 0o444);
      chmodSync(temp.home, 0o555);
      try {
        await expectReadsWork(thread, (args) => uwfUnprivileged(args));
        const recovered = await uwfUnprivileged(["cas", "recover"]);
        expect(recovered.exitCode).toBe(1);
        expectOneLine(recovered);
        expect(recovered.stderr).toStartWith(`uwf: the ref store ${join(temp.home, "refs.db")} cannot be `);
      } finally {
        chmodSync(temp.home, 0o755); // so that the temp home can be removed by a user that is not root
      }
    }, 60_000);
  },
);

describe("a ref store another process keeps locked", () => {
  it("exits 75, busy, once the busy timeout has passed, and changes nothing", async () => {
    await startThread();
    const holder = Bun.spawn(
      [
        process.execPath,
        "-e",
        `const { Database } = require("bun:sqlite");
         const database = new Database(${JSON.stringify(join(temp.home, "refs.db"))});
         database.run("BEGIN IMMEDIATE");
         console.log("locked");
         setInterval(() => {}, 1000);`,
      ],
      { stdout: "pipe", stderr: "inherit" },
    );
    try {
      const reader = holder.stdout.getReader();
      const { value } = await reader.read();
      expect(new TextDecoder().decode(value)).toContain("locked");
      const started = Date.now();
      const start = await temp.uwf(["start", LINEAR, "-p", "Blocked", "--json"]);
      expect(start.exitCode).toBe(75);
      expect(Date.now() - started).toBeGreaterThanOrEqual(9_000);
      const error = errorResultSchema.parse(JSON.parse(start.stderr)).error;
      expect(error.code).toBe("ref-store-busy");
      expect(error.message).toContain("retry later");
    } finally {
      holder.kill();
      await holder.exited;
    }
    const listed = await temp.uwf(["list", "--json"]);
    expect((listed.json() as { total: number }).total).toBe(1);
  }, 60_000);
});

describe("a closed stdout", () => {
  /** `uwf ARGS | head -c 10`: uwf's exit status and stderr. */
  async function intoHead(args: string[]): Promise<{ exitCode: number; stderr: string }> {
    const stderrFile = join(temp.work, "stderr.txt");
    const command = [...UWF_COMMAND, ...args].map(quoteForShell).join(" ");
    const shell = Bun.spawn(
      ["bash", "-c", `${command} 2>'${stderrFile}' | head -c 10 >/dev/null; echo "\${PIPESTATUS[0]}"`],
      {
        cwd: temp.work,
        env: { ...process.env, UWF_HOME: temp.home, NO_COLOR: "1" },
        stdout: "pipe",
      },
    );
    const status = (await new Response(shell.stdout).text()).trim();
    await shell.exited;
    return { exitCode: Number(status), stderr: await Bun.file(stderrFile).text() };
  }

  it("uwf read T | head exits quietly with 141, as git log | head does", async () => {
    // A transcript far bigger than a pipe's buffer, so uwf is still writing when head leaves.
    const thread = await startThread("x".repeat(120_000));
    for (const args of [
      ["read", thread, "--quota", "1000000"],
      ["read", thread, "--quota", "1000000", "--json"],
    ]) {
      expect({ args, ...(await intoHead(args)) }).toEqual({ args, exitCode: 141, stderr: "" });
    }
  });
});

describe("input files that are missing or not files", () => {
  it("uwf cas put FILE: one line, exit 1, nothing stored", async () => {
    mkdirSync(join(temp.work, "a-folder"));
    for (const [file, reason] of [
      ["missing.json", "no such file"],
      ["a-folder", "is a directory, not a file"],
      ["/dev/zero", "not a regular file"],
    ] as const) {
      const put = await temp.uwf(["cas", "put", file]);
      expect({ file, exitCode: put.exitCode }).toEqual({ file, exitCode: 1 });
      expect(put.stderr).toBe(`uwf: ${file}: ${reason}\n`);
    }
    const json = await temp.uwf(["cas", "put", "missing.json", "--json"]);
    expect(errorCode(json)).toBe("input-file-unreadable");
    expect(existsSync(join(temp.home, "objects"))).toBe(false);
  });

  it("uwf cas put reads a pipe given as a file", async () => {
    const put = await temp.uwf(["cas", "put", "/dev/stdin"], { stdin: '{"a":1}' });
    expect(put.exitCode).toBe(0);
    expect(put.stdout.trim()).toMatch(/^[0-9A-Z]{13}$/);
  });

  it("uwf fork --output FILE (or an empty folder): one line, exit 1, no thread made", async () => {
    const thread = await startThread();
    const stepped = await temp.uwf(["step", thread, "--agent", SCRIPTED, "--json"]);
    const head = stepResultSchema.parse(stepped.json()).head;
    mkdirSync(join(temp.work, "a-folder"));
    for (const [file, reason] of [
      ["missing.md", "no such file"],
      // A folder gives one fork per reply file in it (fork --output DIR): this one has none.
      ["a-folder", "the folder holds no reply file (dotfiles are skipped)"],
    ] as const) {
      const fork = await temp.uwf(["fork", head, "--output", file]);
      expect({ file, exitCode: fork.exitCode }).toEqual({ file, exitCode: 1 });
      expect(fork.stderr).toBe(`uwf: --output ${file}: ${reason}\n`);
    }
    expect(((await temp.uwf(["list", "--json"])).json() as { total: number }).total).toBe(1);
  });
});

describe("read-only commands never create a home", () => {
  const ADDRESS = "2W53JPNXF556H";

  it("reads a missing home as empty, says so on stderr, and creates nothing", async () => {
    const missing = join(temp.work, "typo");
    const commands: [string[], number][] = [
      [["list"], 0],
      [["show", "01J0000000000000000000THRD"], 1],
      [["log", "01J0000000000000000000THRD"], 1],
      [["read", "01J0000000000000000000THRD"], 1],
      [["show", ADDRESS], 1],
      [["workflow", "list"], 0],
      [["workflow", "show", "linear"], 1],
      [["cas", "get", ADDRESS], 1],
      [["cas", "has", ADDRESS], 1],
      [["cas", "refs", ADDRESS], 1],
      [["cas", "walk", ADDRESS], 1],
      [["cas", "verify"], 0],
      [["config", "list"], 0],
      [["config", "get", "defaultAgent"], 1],
    ];
    for (const [args, exitCode] of commands) {
      const result = await temp.uwf(["--home", missing, ...args]);
      expect({ args, exitCode: result.exitCode }).toEqual({ args, exitCode });
      expect(result.stderr).not.toContain("internal error");
      expect(existsSync(missing)).toBe(false);
    }
    const list = await temp.uwf(["--home", missing, "list"]);
    expect(list.stdout).toBe("no threads\n");
    expect(list.stderr).toBe(`no uwf home at ${missing}: read as empty (nothing was created)\n`);
    const json = await temp.uwf(["--home", missing, "list", "--json"]);
    expect(json.json()).toEqual({ threads: [], total: 0, limit: 30, offset: 0 });
    expect(json.stderr).toBe("");
    expect(existsSync(missing)).toBe(false);
  });

  it("uwf list outside any project does not create ~/.uwf", async () => {
    const list = await temp.uwf(["list"], { env: { UWF_HOME: "" } });
    expect(list.exitCode).toBe(0);
    expect(list.stdout).toBe("no threads\n");
    const defaultHome = join(resolve(temp.home, ".."), ".uwf");
    expect(list.stderr).toBe(`no uwf home at ${defaultHome}: read as empty (nothing was created)\n`);
    expect(existsSync(defaultHome)).toBe(false);
  });

  it("reads a project home nothing was recorded in yet as empty, quietly, adding nothing to it", async () => {
    expect((await temp.uwf(["init"])).exitCode).toBe(0);
    const project = join(temp.work, ".uwf");
    const list = await temp.uwf(["list"], { env: { UWF_HOME: "" } });
    expect(list).toMatchObject({ exitCode: 0, stdout: "no threads\n", stderr: "" });
    expect(readdirSync(project)).toEqual(["workflows"]);
  });

  it("a write command still creates the home", async () => {
    const fresh = join(temp.work, "fresh");
    const start = await temp.uwf(["--home", fresh, "start", LINEAR, "-p", "Go", "--json"]);
    expect(start.exitCode).toBe(0);
    expect(existsSync(join(fresh, "refs.db"))).toBe(true);
  });
});

describe("no swallowed errors", () => {
  it("uwf workflow list lists a registered workflow whose node is corrupt, with a warning", async () => {
    const added = await temp.uwf(["workflow", "add", LINEAR, "--json"]);
    const { hash } = added.json() as { hash: string };
    writeFileSync(join(temp.home, "objects", hash.slice(0, 2), `${hash.slice(2)}.json`), '{"type":"workflow/1"}');
    const list = await temp.uwf(["workflow", "list", "--json"]);
    expect(list.exitCode).toBe(0);
    expect((list.json() as { workflows: { name: string; hash: string }[] }).workflows).toMatchObject([
      { name: "linear", hash },
    ]);
    expect(list.stderr).toContain(`warning: workflow linear: node ${hash} is corrupt`);
  });
});
