import { beforeAll, describe, expect, it } from "bun:test";
import { join } from "node:path";
import { openPostgresStore, readEveryObject } from "@uwf/cas";
import { startTestPostgres, type TestPostgres } from "@uwf/cas/test";
import { FIXTURES, LINEAR, useTempHome } from "../../helpers/temp-home.ts";

/**
 * The store's password never reaches an agent: not through UWF_STORE, not through PG* variables, not
 * through another variable that holds the `--store` URL. An agent that prints its environment into its
 * reply and its stderr stores no password in the shared store, and uwf prints none.
 */

const AGENT = join(FIXTURES, "agents/print-environment.sh");

let server: TestPostgres;
beforeAll(async () => {
  server = await startTestPostgres();
});
const temp = useTempHome({
  setUp: (home) => home.writeConfig(["agents:", "  printer:", `    command: "${AGENT}"`].join("\n")),
});

/** Every node the store holds, as text. */
async function storedText(url: string): Promise<string> {
  const store = await openPostgresStore(url);
  const texts: string[] = [];
  try {
    for await (const object of readEveryObject(store.objects)) texts.push(JSON.stringify(object));
  } finally {
    await store.close();
  }
  return texts.join("\n");
}

describe("an agent that prints its environment, on a PostgreSQL store", () => {
  it("stores and shows no password of the store, given by UWF_STORE, PGPASSWORD or --store, in step and worker", async () => {
    const url = server.newStoreUrl();
    const password = new URL(url).password;
    expect(password.length).toBeGreaterThan(3);
    // DATABASE_URL: a variable uwf knows nothing of, holding the same URL.
    const others = { PGPASSWORD: password, DATABASE_URL: url, MARKER: "agent-saw-this" };
    const env = { UWF_STORE: url, ...others };
    const started = await temp.uwf(["start", LINEAR, "-p", "Print the environment", "--json"], { env });
    expect(started.exitCode).toBe(0);
    const thread = (started.json() as { thread: string }).thread;
    const viaEnvironment = await temp.uwf(["step", thread, "--agent", "printer", "-v"], { env });
    const viaFlag = await temp.uwf(["--store", url, "step", thread, "--agent", "printer", "-v"], { env: others });
    const outputs: string[] = [];
    for (const run of [viaEnvironment, viaFlag]) {
      expect(run.exitCode).toBe(0);
      // -v streamed the agent's stderr: its environment, without the store's variables.
      expect(run.stderr).toContain("MARKER=agent-saw-this");
      for (const name of ["UWF_STORE", "PGPASSWORD", "DATABASE_URL"]) expect(run.stderr).not.toContain(`${name}=`);
      outputs.push(run.stdout, run.stderr);
    }
    // A worker launches agents too: a queued thread's first step.
    const queued = await temp.uwf(["start", LINEAR, "-p", "Print the environment", "--queue", "--json"], { env });
    expect(queued.exitCode).toBe(0);
    const worked = await temp.uwf(["worker", "--once", "--agent", "printer", "-v"], { env });
    expect(worked.exitCode).toBe(0);
    expect(worked.stderr).toContain("MARKER=agent-saw-this");
    outputs.push(worked.stdout, worked.stderr);
    const read = await temp.uwf(["read", thread], { env });
    expect(read.exitCode).toBe(0);
    expect(read.stdout).toContain("MARKER=agent-saw-this");
    outputs.push(read.stdout, read.stderr);
    for (const args of [["log", thread], ["show", thread, "--reply"], ["list"]]) {
      const shown = await temp.uwf(args, { env });
      expect(shown.exitCode).toBe(0);
      outputs.push(shown.stdout, shown.stderr);
    }
    for (const output of outputs) expect(output).not.toContain(password);

    const stored = await storedText(url);
    expect(stored).toContain("MARKER=agent-saw-this");
    expect(stored).not.toContain(password);
    for (const name of ["UWF_STORE", "PGPASSWORD", "DATABASE_URL"]) expect(stored).not.toContain(`${name}=`);
  }, 60_000);
});
