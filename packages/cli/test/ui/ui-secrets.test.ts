import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Store } from "@uwf/cas";
import { startTestPostgres } from "@uwf/cas/test";
import { API_ROUTES, type CommandOutcome, startUiServer, type UiBackend, type UiServer } from "@uwf/ui";
import { COMMAND_TABLE } from "../../src/commands/command-table.ts";
import { createCommandBackend } from "../../src/commands/ui/command-backend.ts";
import { tempHomeMachineContext } from "../helpers/machine-context.ts";
import { createTempHome, FIXTURES, LINEAR, type TempHome } from "../helpers/temp-home.ts";

/**
 * The API never returns a provider key, the store's password or the home's `.env`: a home whose
 * config.yaml names a PostgreSQL store by a URL with a password and gives an agent an API key, and whose
 * `.env` holds another key; every endpoint is called, errors too, and no answer holds any of them.
 */

const CONFIG_KEY = "sk-ant-config-0f7c1d2e3a4b5c6d";
const DOTENV_KEY = "sk-ant-dotenv-9a8b7c6d5e4f3a2b";

let temp: TempHome;
let store: Store;
let backend: UiBackend;
let server: UiServer;
let password: string;
let storeUrl: string;

beforeAll(async () => {
  storeUrl = (await startTestPostgres()).newStoreUrl();
  password = new URL(storeUrl).password;
  temp = createTempHome();
  temp.writeConfig(
    [
      `store: "${storeUrl}"`,
      "agents:",
      "  linear:",
      "    builtin: scripted",
      `    scenario: ${join(FIXTURES, "workflows/linear.scenario.yaml")}`,
      "  keyed:",
      "    command: sh",
      '    args: ["-c", "cat"]',
      "    env:",
      `      ANTHROPIC_API_KEY: ${CONFIG_KEY}`,
      "defaultAgent: linear",
    ].join("\n"),
  );
  writeFileSync(join(temp.home, ".env"), `ANTHROPIC_API_KEY=${DOTENV_KEY}\nOTHER_API_KEY=${DOTENV_KEY}\n`);
  const context = tempHomeMachineContext(temp);
  store = await context.openStore();
  backend = createCommandBackend(COMMAND_TABLE, context, store, () => () => {});
  server = await startUiServer({ backend, host: "127.0.0.1", port: 0, readOnly: false, version: "test" });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await store?.close();
  temp?.cleanup();
});

describe("the API of a home with secrets", () => {
  it("returns no provider key, no store password and nothing of .env, from any endpoint, errors included", async () => {
    expect(password.length).toBeGreaterThan(3);
    const thread = await temp.startThread(LINEAR, "Write hello.txt");
    expect((await temp.uwf(["step", thread, "--all", "-q"])).exitCode).toBe(0);
    const other = await temp.startThread(LINEAR, "Another");
    const planner = (await temp.uwf(["log", thread, "--json"])).json<{ steps: { address: string }[] }>().steps[0]
      ?.address as string;
    const evaluated = await temp.uwf(["eval", thread, other, "--assert", "cheap=usage.costUsd < 0.5", "--json"]);
    expect(evaluated.exitCode).toBe(0);
    const report = evaluated.json<{ report: string }>().report;
    const explored = await temp.uwf([
      "explore",
      thread,
      "--samples",
      "1",
      "--assert",
      "cheap=usage.costUsd < 0.5",
      "--json",
    ]);
    expect(explored.exitCode).toBe(0);
    const exploration = explored.json<{ report: string }>().report;
    const scheduled = await temp.uwf(["schedule", "add", "nightly", LINEAR, "--cron", "0 2 * * *", "-p", "Nightly"]);
    expect(scheduled.exitCode).toBe(0);
    const base = `http://127.0.0.1:${server.port}`;
    const token = new URL(server.url).searchParams.get("token") as string;
    const params: Record<string, string> = {
      id: thread,
      address: planner,
      left: thread,
      right: other,
      reference: "linear",
      name: "nightly",
    };
    const answers: string[] = [];
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      answers.push(`${method} ${path} ${response.status} ${[...response.headers.entries()].join(" ")} ${text}`);
      return response.status;
    };
    for (const route of API_ROUTES) {
      const values = route.path.startsWith("/api/evals/")
        ? { ...params, id: report, baseline: report, current: report }
        : route.path.startsWith("/api/explorations/")
          ? { ...params, id: exploration }
          : params;
      const path = route.path.replace(/:(\w+)/g, (_, name: string) => values[name] ?? "x");
      if (route.method === "GET") expect({ path, status: await call("GET", path) }).toEqual({ path, status: 200 });
    }
    // Errors: things not found, a workflow by a path that is not there, refused actions, a bad address.
    await call("GET", "/api/threads/01NOSUCH");
    await call("GET", "/api/nodes/ZZZZ");
    await call("GET", "/api/nodes/not-an-address!");
    await call("GET", `/api/workflows/${encodeURIComponent(join(temp.work, "missing.yaml"))}`);
    await call("GET", "/api/evals/nosuch");
    await call("POST", `/api/threads/${thread}/step`, {});
    await call("POST", `/api/threads/${thread}/resume`, {});
    await call("POST", `/api/nodes/${planner}/fork`, { reply: "---\nnope: 1\n---\n" });
    await call("GET", "/api/session");
    await call("GET", "/");
    const all = answers.join("\n");
    expect(all).toContain(thread);
    for (const secret of [password, CONFIG_KEY, DOTENV_KEY, "OTHER_API_KEY"]) expect(all).not.toContain(secret);
    expect(all).not.toContain(storeUrl);
  }, 60_000);

  it("masks a password in an error that quotes a store URL some other way", async () => {
    const unreachable = async (): Promise<CommandOutcome<never>> => ({
      ok: false,
      error: {
        code: "store-unreachable",
        message: "cannot reach postgres://uwf:hunter2secret@db.example:5432/uwf",
        data: { url: "postgres://uwf:hunter2secret@db.example:5432/uwf", detail: "timeout" },
      },
      exitCode: 75,
    });
    const leaky: UiBackend = {
      run: unreachable,
      show: unreachable,
      threadLog: unreachable,
      agentOutput: unreachable,
      threadTree: unreachable,
      listThreads: unreachable,
      watch: () => () => {},
    };
    const leakyServer = await startUiServer({
      backend: leaky,
      host: "127.0.0.1",
      port: 0,
      readOnly: false,
      version: "t",
    });
    try {
      const response = await fetch(`http://127.0.0.1:${leakyServer.port}/api/threads`);
      expect(response.status).toBe(503);
      const text = await response.text();
      expect(text).not.toContain("hunter2secret");
      expect(JSON.parse(text)).toMatchObject({
        error: { code: "store-unreachable", message: "cannot reach postgres://uwf:****@db.example:5432/uwf" },
        exitCode: 75,
      });
    } finally {
      await leakyServer.stop();
    }
  });

  it("answers a failure of the server itself as a 500 internal error, password masked", async () => {
    const breaks = async (): Promise<never> => {
      throw new Error("the backend broke on postgres://uwf:hunter2secret@db.example/uwf");
    };
    const broken: UiBackend = {
      run: breaks,
      show: breaks,
      threadLog: breaks,
      agentOutput: breaks,
      threadTree: breaks,
      listThreads: breaks,
      watch: () => () => {},
    };
    const brokenServer = await startUiServer({
      backend: broken,
      host: "127.0.0.1",
      port: 0,
      readOnly: false,
      version: "t",
    });
    try {
      const response = await fetch(`http://127.0.0.1:${brokenServer.port}/api/threads`);
      expect(response.status).toBe(500);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      const text = await response.text();
      expect(text).not.toContain("hunter2secret");
      expect(JSON.parse(text)).toMatchObject({ error: { code: "internal" } });
    } finally {
      await brokenServer.stop();
    }
  });
});
