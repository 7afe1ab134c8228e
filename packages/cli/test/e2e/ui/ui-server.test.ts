import { describe, expect, it } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "@uwf/cas/test";
import { listResultSchema, shownThreadSchema, stepResultSchema, uiStartedEventSchema } from "@uwf/protocol";
import { readFirstLine } from "../../../../../test/kit/process/read-first-line.ts";
import { readEvents } from "../../helpers/cli-events.ts";
import { fixtureAgentsConfig, LINEAR, SCRIPTED, useTempHome } from "../../helpers/temp-home.ts";

/** `uwf ui` as a user runs it: the real command, its URL read from stdout, the API called over HTTP. */

const temp = useTempHome({
  setUp: (home) =>
    home.writeConfig(
      [
        "agents:",
        "  scripted:",
        "    builtin: scripted",
        `    scenario: ${SCRIPTED.slice("scripted:".length)}`,
        "defaultAgent: scripted",
      ].join("\n"),
    ),
});

describe("uwf ui", () => {
  it("prints its URL, answers the API over the store, sees a step another process records, and exits 130 on SIGINT", async () => {
    const thread = await temp.startThread(LINEAR, "Write hello.txt");
    const ui = temp.spawn(["ui", "--port", "0"]);
    const line = await readFirstLine(ui.stdout as ReadableStream<Uint8Array>);
    const match = /^uwf ui: (http:\/\/127\.0\.0\.1:\d+)\/\?token=([A-Za-z0-9_-]{32})$/.exec(line);
    expect(match).not.toBeNull();
    const [, base, token] = match as RegExpExecArray;

    const before = listResultSchema.parse(await (await fetch(`${base}/api/threads`)).json());
    expect(before.threads.map((row) => row.id)).toEqual([thread]);
    // Another process steps the thread: the server reads the store as it is now.
    expect((await temp.uwf(["step", thread, "-q"])).exitCode).toBe(0);
    const shown = shownThreadSchema.parse(await (await fetch(`${base}/api/threads/${thread}`)).json());
    expect(shown.stepCount).toBe(1);

    // An action through the API, as a script holding the token takes it.
    const stepped = await fetch(`${base}/api/threads/${thread}/step`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ all: true }),
    });
    expect(stepped.status).toBe(200);
    expect(stepResultSchema.parse(await stepped.json())).toMatchObject({ status: "ended", steps: [{ role: "doer" }] });
    expect((await temp.showThread(thread)).status).toBe("ended");

    ui.kill("SIGINT");
    expect(await ui.exited).toBe(130);
    await expect(fetch(`${base}/api/threads`)).rejects.toThrow();
  }, 60_000);

  it("under --jsonl prints the ui-started line; SIGTERM stops it with exit 0; --read-only serves no action", async () => {
    const thread = await temp.startThread(LINEAR, "Leave me");
    const ui = temp.spawn(["ui", "--port", "0", "--read-only", "--jsonl"]);
    const events = readEvents(ui.stdout as ReadableStream<Uint8Array>);
    const started = uiStartedEventSchema.parse(
      await events.until((event) => event.type === "ui-started", "ui-started"),
    );
    expect(started.readOnly).toBe(true);
    const url = new URL(started.url);
    const token = url.searchParams.get("token") as string;
    const session = await (await fetch(`${url.origin}/api/session`)).json();
    expect(session).toMatchObject({ readOnly: true });
    const refused = await fetch(`${url.origin}/api/threads/${thread}/step`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(refused.status).toBe(403);
    expect((await temp.showThread(thread)).stepCount).toBe(0);
    ui.kill("SIGTERM");
    expect(await ui.exited).toBe(0);
    expect(await events.all()).toHaveLength(1);
  }, 60_000);

  it("runs an action to its end when the page that asked goes away; stopping the server interrupts one", async () => {
    temp.writeConfig([...fixtureAgentsConfig(["slow-valid", "sleepy"]), "defaultAgent: slow-valid"].join("\n"));
    const pidFile = join(temp.work, "agent.pid");
    const thread = await temp.startThread(LINEAR, "Take your time");
    const ui = temp.spawn(["ui", "--port", "0"], { env: { PID_FILE: pidFile } });
    const [, base, token] =
      /^uwf ui: (\S+)\/\?token=(\S+)$/.exec(await readFirstLine(ui.stdout as ReadableStream<Uint8Array>)) ?? [];
    const step = (signal?: AbortSignal) =>
      fetch(`${base}/api/threads/${thread}/step`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
        signal,
      });
    const gone = new AbortController();
    const asked = step(gone.signal).catch((error: unknown) => error);
    await waitFor(() => existsSync(pidFile), { what: "the agent starting" });
    gone.abort();
    expect(await asked).toBeInstanceOf(Error);
    writeFileSync(`${pidFile}.release`, "");
    await waitFor(async () => (await temp.showThread(thread)).stepCount === 1, { what: "the step recorded" });

    // The server stops while the agent works: the step is interrupted as Ctrl-C interrupts `uwf step`.
    temp.writeConfig([...fixtureAgentsConfig(["sleepy"]), "defaultAgent: sleepy"].join("\n"));
    ui.kill("SIGTERM");
    expect(await ui.exited).toBe(0);
    const again = temp.spawn(["ui", "--port", "0"], { env: { PID_FILE: `${pidFile}.2` } });
    const [, base2, token2] =
      /^uwf ui: (\S+)\/\?token=(\S+)$/.exec(await readFirstLine(again.stdout as ReadableStream<Uint8Array>)) ?? [];
    const running = fetch(`${base2}/api/threads/${thread}/step`, {
      method: "POST",
      headers: { authorization: `Bearer ${token2}` },
    });
    await waitFor(() => existsSync(`${pidFile}.2`), { what: "the sleepy agent starting" });
    again.kill("SIGINT");
    const answer = await running;
    expect(answer.status).toBe(503);
    expect(await answer.json()).toMatchObject({ error: { code: "interrupted" }, exitCode: 130 });
    expect(await again.exited).toBe(130);
    const after = await temp.showThread(thread);
    expect(after).toMatchObject({ status: "active", stepCount: 1 });
    expect((await temp.uwf(["list", "--running", "--json"])).json()).toMatchObject({ total: 0 });
  }, 90_000);

  it("--open opens the URL with the system's opener, and only warns when there is none", async () => {
    const bin = join(temp.work, "bin");
    mkdirSync(bin);
    const opened = join(temp.work, "opened.txt");
    // Written whole, then renamed: the test never reads a half-written file.
    writeFileSync(join(bin, "xdg-open"), `#!/bin/sh\necho "$1" > "${opened}.tmp" && mv "${opened}.tmp" "${opened}"\n`);
    chmodSync(join(bin, "xdg-open"), 0o755);
    const ui = temp.spawn(["ui", "--port", "0", "--open"], { env: { PATH: `${bin}:/usr/bin:/bin` } });
    const line = await readFirstLine(ui.stdout as ReadableStream<Uint8Array>);
    await waitFor(() => existsSync(opened), { what: "xdg-open running" });
    expect(`uwf ui: ${readFileSync(opened, "utf8").trim()}`).toBe(line);
    ui.kill("SIGTERM");
    expect(await ui.exited).toBe(0);

    const none = temp.spawn(["ui", "--port", "0", "--open"], { env: { PATH: join(temp.work, "empty") } });
    const url = (await readFirstLine(none.stdout as ReadableStream<Uint8Array>)).slice("uwf ui: ".length);
    await waitFor(async () => (await fetch(new URL("/api/session", url))).ok, { what: "the server answering" });
    none.kill("SIGTERM");
    expect(await none.exited).toBe(0);
    const stderr = await new Response(none.stderr as ReadableStream<Uint8Array>).text();
    expect(stderr).toContain(`cannot open a browser (xdg-open was not found): open ${url} yourself`);
  }, 60_000);

  it("falls back to a free port when its default one is taken, and says so", async () => {
    let taken: ReturnType<typeof Bun.serve> | undefined;
    try {
      // Taken by this test, or already by another program: either way uwf ui must find another.
      taken = Bun.serve({ hostname: "127.0.0.1", port: 7323, fetch: () => new Response("someone else") });
    } catch {}
    try {
      const ui = temp.spawn(["ui"]);
      const line = await readFirstLine(ui.stdout as ReadableStream<Uint8Array>);
      const port = Number(/:(\d+)\/\?token=/.exec(line)?.[1]);
      expect(port).not.toBe(7323);
      expect(port).toBeGreaterThan(0);
      ui.kill("SIGTERM");
      expect(await ui.exited).toBe(0);
      expect(await new Response(ui.stderr as ReadableStream<Uint8Array>).text()).toContain(
        `port 7323 is in use, so uwf ui listens on port ${port}`,
      );
    } finally {
      await taken?.stop(true);
    }
  }, 60_000);

  it("refuses what it cannot serve safely or at all: off loopback without a token, --json, a port in use", async () => {
    const open = await temp.uwf(["ui", "--host", "0.0.0.0", "--port", "0", "--json"]);
    // --json first: it is refused whatever the host.
    expect(open.exitCode).toBe(2);
    const offLoopback = await temp.uwf(["ui", "--host", "0.0.0.0", "--port", "0"]);
    expect(offLoopback.exitCode).toBe(2);
    expect(offLoopback.stderr).toContain("--host 0.0.0.0 is not a loopback address");
    expect(offLoopback.stderr.trim().split("\n")).toHaveLength(1);
    const json = await temp.uwf(["ui", "--port", "0", "--json"]);
    expect(json.exitCode).toBe(2);
    expect(JSON.parse(json.stderr)).toMatchObject({ error: { code: "usage" } });
    const shortToken = await temp.uwf(["ui", "--port", "0", "--token", "short"]);
    expect(shortToken.exitCode).toBe(2);
    const taken = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("someone else") });
    try {
      const inUse = await temp.uwf(["ui", "--port", String(taken.port), "--json"]);
      expect(inUse.exitCode).toBe(2);
      const busy = await temp.uwf(["ui", "--port", String(taken.port), "--jsonl"]);
      expect(busy.exitCode).toBe(1);
      expect(JSON.parse(busy.stderr)).toMatchObject({
        error: { code: "listen-failed", data: { host: "127.0.0.1", port: taken.port, reason: "the port is in use" } },
      });
    } finally {
      await taken.stop(true);
    }
  }, 60_000);
});
