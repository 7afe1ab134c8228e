import { beforeAll, describe, expect, it } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { openPostgresStore } from "@uwf/cas";
import { startOwnTestPostgres, startTestPostgres, type TestPostgres, waitFor } from "@uwf/cas/test";
import { listResultSchema, logResultSchema, stepResultSchema, workerResultSchema } from "@uwf/protocol";
import { FIXTURES, LINEAR, SCRIPTED, useTempHome } from "../../helpers/temp-home.ts";

let server: TestPostgres;
beforeAll(async () => {
  server = await startTestPostgres();
});
const temp = useTempHome();

/** The threads a store holds, read in-process: where a command's writes went. */
async function threadIdsIn(url: string): Promise<string[]> {
  const store = await openPostgresStore(url);
  try {
    return (await store.refs.listThreads({})).threads.map((thread) => thread.id);
  } finally {
    await store.close();
  }
}

const PASSWORD = () => new URL(server.url).password;

describe("a PostgreSQL store", () => {
  it("runs a workflow to its end through UWF_STORE, and show, list, verify, gc and recover work on it", async () => {
    const url = server.newStoreUrl();
    const env = { UWF_STORE: url };
    const started = await temp.uwf(["start", LINEAR, "-p", "Write hello.txt", "--json"], { env });
    expect(started.exitCode).toBe(0);
    const thread = (started.json() as { thread: string }).thread;
    const stepped = await temp.uwf(["step", thread, "--all", "--agent", SCRIPTED, "--json"], { env });
    expect(stepped.stderr).toBe("");
    expect(stepped.exitCode).toBe(0);
    const result = stepResultSchema.parse(stepped.json());
    expect(result.status).toBe("ended");
    expect(result.steps.map((step) => step.role)).toEqual(["planner", "doer"]);

    const shown = await temp.uwf(["show", thread, "--json"], { env });
    expect(shown.json()).toMatchObject({ id: thread, status: "ended", stepCount: 2, head: result.head });
    const listed = listResultSchema.parse((await temp.uwf(["list", "--json"], { env })).json());
    expect(listed.threads.map((entry) => entry.id)).toEqual([thread]);
    const log = await temp.uwf(["log", thread], { env });
    expect(log.exitCode).toBe(0);
    expect(log.stdout).toContain("doer");

    const verified = await temp.uwf(["cas", "verify"], { env });
    expect(verified.exitCode).toBe(0);
    expect(verified.stdout).toContain("0 problem(s)");
    const collected = await temp.uwf(["cas", "gc", "--json"], { env });
    expect(collected.exitCode).toBe(0);
    expect(collected.json()).toMatchObject({ deleted: [] });
    const recovered = await temp.uwf(["cas", "recover", "--json"], { env });
    expect(recovered.exitCode).toBe(0);
    expect(recovered.json()).toMatchObject({ setAside: null, recovered: [] });

    // Everything went to the server: the home holds no store of its own.
    expect(await threadIdsIn(url)).toEqual([thread]);
    expect(existsSync(join(temp.home, "refs.db"))).toBe(false);
    expect(existsSync(join(temp.home, "objects"))).toBe(false);
  });

  it("is chosen by --store over UWF_STORE over store: in config, whose password config list masks", async () => {
    const [fromConfig, fromEnv, fromFlag] = [server.newStoreUrl(), server.newStoreUrl(), server.newStoreUrl()];
    temp.writeConfig(`store: "${fromConfig}"\n`);
    const inConfig = await temp.startThread();
    const inEnv = (await temp.uwf(["start", LINEAR, "-p", "x", "--json"], { env: { UWF_STORE: fromEnv } })).json();
    const inFlag = (
      await temp.uwf(["--store", fromFlag, "start", LINEAR, "-p", "x", "--json"], { env: { UWF_STORE: fromEnv } })
    ).json();
    expect(await threadIdsIn(fromConfig)).toEqual([inConfig]);
    expect(await threadIdsIn(fromEnv)).toEqual([(inEnv as { thread: string }).thread]);
    expect(await threadIdsIn(fromFlag)).toEqual([(inFlag as { thread: string }).thread]);

    // `file` is the home's own store, whatever config says.
    const inHome = await temp.uwf(["start", LINEAR, "-p", "x"], { env: { UWF_STORE: "file" } });
    expect(inHome.exitCode).toBe(0);
    expect(existsSync(join(temp.home, "refs.db"))).toBe(true);

    for (const args of [
      ["config", "list"],
      ["config", "get", "store"],
      ["config", "list", "--json"],
    ]) {
      const shown = await temp.uwf(args);
      expect(shown.exitCode).toBe(0);
      expect(shown.stdout).toContain("uwf:****@127.0.0.1");
      expect(shown.stdout).not.toContain(PASSWORD());
    }
  });

  it("fails in one line, password masked, with 75 when the server is away and 1 when it refuses uwf", async () => {
    const url = new URL(server.newStoreUrl());
    const away = new URL(url);
    away.port = "1";
    const wrongPassword = new URL(url);
    wrongPassword.password = "not-the-password";
    const noDatabase = new URL(url);
    noDatabase.pathname = "/no_such_database";
    const cases = [
      { store: away, exitCode: 75, code: "store-unreachable", says: "cannot be reached" },
      { store: wrongPassword, exitCode: 1, code: "store-refused", says: "check the user and password" },
      { store: noDatabase, exitCode: 1, code: "store-refused", says: "3D000" },
    ];
    for (const { store, exitCode, code, says } of cases) {
      const env = { UWF_STORE: store.toString() };
      const listed = await temp.uwf(["list"], { env });
      expect(listed.exitCode).toBe(exitCode);
      expect(listed.stderr).toContain(says);
      expect(listed.stderr).toContain("uwf:****@127.0.0.1");
      expect(listed.stderr.trimEnd().split("\n")).toHaveLength(1);
      const json = await temp.uwf(["start", LINEAR, "-p", "x", "--json"], { env });
      expect(json.exitCode).toBe(exitCode);
      expect(JSON.parse(json.stderr).error.code).toBe(code);
      for (const output of [listed.stderr, json.stderr]) {
        expect(output).not.toContain(store.password);
        expect(output).not.toContain("internal error");
      }
    }
    const unsupported = await temp.uwf(["--store", "mysql://me:hunter22@127.0.0.1/db", "list"]);
    expect(unsupported.exitCode).toBe(2);
    expect(unsupported.stderr).toContain("mysql://me:****@127.0.0.1/db");
    expect(unsupported.stderr).not.toContain("hunter22");
    const badSchemaUrl = new URL(url);
    badSchemaUrl.searchParams.set("schema", "Bad-Name");
    const badSchema = await temp.uwf(["list"], { env: { UWF_STORE: badSchemaUrl.toString() } });
    expect(badSchema.exitCode).toBe(2);
    expect(badSchema.stderr).toContain('schema "Bad-Name"');
  });

  it("exits 75 when the server goes away mid-step, shows no half-written step, and steps on once it is back", async () => {
    const own = await startOwnTestPostgres();
    const env = { UWF_STORE: own.newStoreUrl() };
    temp.writeConfig(
      ["agents:", "  slow:", "    command: sh", `    args: ["${join(FIXTURES, "agents/slow-valid.sh")}"]`].join("\n"),
    );
    const started = await temp.uwf(["start", LINEAR, "-p", "x", "--json"], { env });
    const thread = (started.json() as { thread: string; head: string }).thread;
    const before = await temp.uwf(["show", thread, "--json"], { env });
    const pidFile = join(temp.work, "agent.pid");
    const step = temp.spawn(["step", thread, "--agent", "slow"], { env: { ...env, PID_FILE: pidFile } });
    await waitFor(() => existsSync(pidFile), { what: "the agent to start" });
    await own.stop();
    await Bun.write(`${pidFile}.release`, "");
    expect(await step.exited).toBe(75);
    const stderr = await new Response(step.stderr as ReadableStream).text();
    expect(stderr).toContain("cannot be reached");
    expect(stderr).not.toContain(new URL(own.url).password);

    await own.start();
    const after = await temp.uwf(["show", thread, "--json"], { env });
    expect(after.json()).toEqual(before.json());
    const resumed = await temp.uwf(["step", thread, "--all", "--agent", SCRIPTED, "--json"], { env });
    expect(resumed.exitCode).toBe(0);
    expect(stepResultSchema.parse(resumed.json()).status).toBe("ended");
    const verified = await temp.uwf(["cas", "verify"], { env });
    expect(verified.exitCode).toBe(0);
    expect(verified.stdout).toContain("0 problem(s)");
  });

  it("stops a worker whose server goes away mid-step with exit 75, no step half-written, and the next worker ends the thread", async () => {
    const own = await startOwnTestPostgres();
    const env = { UWF_STORE: own.newStoreUrl() };
    temp.writeConfig(
      [
        "agents:",
        "  slow:",
        "    command: sh",
        `    args: ["${join(FIXTURES, "agents/slow-valid.sh")}"]`,
        "worker: { retries: 2, backoffMs: 20, pollMs: 50 }",
      ].join("\n"),
    );
    const started = await temp.uwf(["start", LINEAR, "-p", "x", "--queue", "--json"], { env });
    const thread = (started.json() as { thread: string }).thread;
    const before = await temp.uwf(["show", thread, "--json"], { env });
    const pidFile = join(temp.work, "agent.pid");
    const worker = temp.spawn(["worker", "--agent", "slow", "--jsonl"], { env: { ...env, PID_FILE: pidFile } });
    await waitFor(() => existsSync(pidFile), { what: "the agent to start" });
    await own.stop();
    await Bun.write(`${pidFile}.release`, "");
    // The agent answered, but its step cannot be recorded: the worker stops, and says why, as the last line.
    expect(await worker.exited).toBe(75);
    const stderr = (await new Response(worker.stderr as ReadableStream).text()).trimEnd().split("\n");
    expect(JSON.parse(stderr.at(-1) ?? "").error.code).toBe("store-unreachable");
    expect(stderr.join("\n")).not.toContain(new URL(own.url).password);
    const stdout = await new Response(worker.stdout as ReadableStream).text();
    expect(stdout).not.toContain("step-finished");

    await own.start();
    expect((await temp.uwf(["show", thread, "--json"], { env })).json()).toEqual(before.json());
    // The stopped worker's lease names a process of this host that is gone: the next worker takes it at once.
    const next = await temp.uwf(["worker", "--once", "--agent", SCRIPTED, "--json"], { env });
    expect(next.exitCode).toBe(0);
    expect(workerResultSchema.parse(next.json())).toMatchObject({ claimed: 1, steps: 2 });
    const log = logResultSchema.parse((await temp.uwf(["log", thread, "--json"], { env })).json());
    expect(log.steps.map((step) => step.role)).toEqual(["planner", "doer"]);
    const verified = await temp.uwf(["cas", "verify"], { env });
    expect(verified.exitCode).toBe(0);
    expect(verified.stdout).toContain("0 problem(s)");
  });
});
