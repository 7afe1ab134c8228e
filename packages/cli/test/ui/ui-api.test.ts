import { describe, expect, it } from "bun:test";
import {
  compareResultSchema,
  diffResultSchema,
  errorResultSchema,
  forkResultSchema,
  type LiveEvent,
  listResultSchema,
  logResultSchema,
  shownThreadSchema,
  stepResultSchema,
  treeResultSchema,
  workflowListResultSchema,
  workflowShowResultSchema,
} from "@uwf/protocol";
import { LINEAR } from "../helpers/temp-home.ts";
import { ASK, SCRIPTED_AGENTS_CONFIG } from "../helpers/workbench-home.ts";
import { useUiApi } from "./ui-api-kit.ts";

/**
 * The `uwf ui` server's API over a real store: startUiServer with the CLI's backend (each endpoint runs
 * its command on the home's store, as `uwf … --json` would), threads made by the real `uwf`.
 */

const TOKEN = "test-token-0123456789abcdef";

/** The listener the server gave the store's change feed: the test plays the feed. */
let feed: ((event: LiveEvent) => void) | undefined;

const { temp, serve, pagePost } = useUiApi({
  token: TOKEN,
  setUp(home) {
    home.writeConfig(
      [
        ...SCRIPTED_AGENTS_CONFIG,
        "defaultAgent: linear",
        // The ask workflow's threads get their own scripted agent, so that the API's actions need no --agent.
        "agentOverrides:",
        "  ask:",
        "    asker: asker",
      ].join("\n"),
    );
  },
  subscribe(listener) {
    feed = listener;
    return () => {
      feed = undefined;
    };
  },
});

async function errorOf(response: Response) {
  return errorResultSchema.parse(await response.json()).error;
}

async function startThread(workflow = LINEAR, prompt = "Write hello.txt"): Promise<string> {
  return temp.startThread(workflow, prompt);
}

describe("the read endpoints", () => {
  it("answer each GET of the route table with its command's --json result", async () => {
    const thread = await startThread();
    const ran = await temp.uwf(["step", thread, "--all", "-q"]);
    expect(ran.exitCode).toBe(0);
    const other = await startThread(LINEAR, "Another task");
    expect((await temp.uwf(["step", other, "--all", "-q"])).exitCode).toBe(0);
    const { base } = await serve();
    const get = async (path: string) => {
      const response = await fetch(`${base}${path}`);
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
      return response.json();
    };

    const list = listResultSchema.parse(await get("/api/threads?status=ended&limit=1"));
    expect(list.threads).toHaveLength(1);
    expect(list.total).toBeGreaterThanOrEqual(2);
    const shown = shownThreadSchema.parse(await get(`/api/threads/${thread}`));
    expect(shown).toMatchObject({ id: thread, status: "ended", stepCount: 2 });
    const log = logResultSchema.parse(await get(`/api/threads/${thread}/log`));
    expect(log.steps.map((step) => step.role)).toEqual(["planner", "doer"]);
    const planner = log.steps[0]?.address as string;
    expect(treeResultSchema.parse(await get(`/api/threads/${thread}/tree`))).toMatchObject({
      thread,
      workflow: "linear",
    });
    expect(compareResultSchema.parse(await get(`/api/threads/${thread}/compare`))).toMatchObject({ original: thread });
    expect(await get(`/api/nodes/${planner}`)).toMatchObject({ address: planner });
    expect(await get(`/api/nodes/${planner}/prompt`)).toMatchObject({
      text: expect.stringContaining("Plan the task."),
    });
    expect(await get(`/api/nodes/${planner}/reply`)).toMatchObject({ text: expect.stringContaining("hello.txt") });
    // Two runs of one workflow on different tasks: nothing shared, both chains of two steps paired.
    const diff = diffResultSchema.parse(await get(`/api/diff/${thread}/${other}`));
    expect(diff).toMatchObject({ left: { thread }, right: { thread: other }, sameStart: false, commonSteps: 0 });
    expect(diff.steps).toHaveLength(2);
    expect([diff.totals.left.steps, diff.totals.right.steps]).toEqual([2, 2]);
    expect((await temp.uwf(["workflow", "add", LINEAR])).exitCode).toBe(0);
    const workflows = workflowListResultSchema.parse(await get("/api/workflows"));
    expect(workflows.workflows.map((workflow) => workflow.name)).toContain("linear");
    expect(workflowShowResultSchema.parse(await get(`/api/workflows/${thread}`)).workflow).toMatchObject({
      name: "linear",
    });
    expect(await get("/api/evals")).toMatchObject({ reports: [] });
    expect(await get("/api/session")).toEqual({ readOnly: false, version: "test", authorized: false });
  }, 60_000);

  it("answers a thing not found with 404 and the command's error, an unknown path with 404, another method with 405", async () => {
    const { base } = await serve();
    const missing = await fetch(`${base}/api/threads/01NOSUCHTHREAD`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: "thread-not-found" }, exitCode: 1 });
    const report = await fetch(`${base}/api/evals/nosuchreport`);
    expect(report.status).toBe(404);
    expect((await errorOf(report)).code).toBe("eval-report-not-found");
    const unknown = await fetch(`${base}/api/nothing/here`);
    expect(unknown.status).toBe(404);
    expect((await errorOf(unknown)).code).toBe("not-found");
    const wrongMethod = await fetch(`${base}/api/threads/x/step`);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("POST");
    expect((await errorOf(wrongMethod)).code).toBe("method-not-allowed");
    const postToRead = await pagePost(base, "/api/threads/x/log");
    expect(postToRead.status).toBe(405);
  });

  it("answers a read the CLI would refuse as it refuses the command: 400 with the flag named, 404 for a thread not there", async () => {
    const thread = await startThread();
    const { base } = await serve();
    const refusals: [string, number, string, string][] = [
      ["/api/threads?status=sleeping", 400, "usage", "--status sleeping"],
      ["/api/threads?recursive=1", 400, "usage", "--recursive"],
      ["/api/threads?q=cache&running=1", 400, "usage", "--search"],
      [`/api/threads/${thread}/output?step=0`, 400, "usage", "--step 0"],
      ["/api/threads?forksOf=01NOSUCHTHREAD", 404, "thread-not-found", "01NOSUCHTHREAD"],
      ["/api/threads/01NOSUCHTHREAD/log", 404, "thread-not-found", "01NOSUCHTHREAD"],
      ["/api/threads/01NOSUCHTHREAD/tree", 404, "thread-not-found", "01NOSUCHTHREAD"],
      ["/api/threads/01NOSUCHTHREAD/output", 404, "thread-not-found", "01NOSUCHTHREAD"],
    ];
    for (const [path, status, code, named] of refusals) {
      const response = await fetch(`${base}${path}`);
      const body = (await response.json()) as { error: { code: string; message: string }; exitCode: number };
      expect({ path, status: response.status, code: body.error.code }).toEqual({ path, status, code });
      expect(body.error.message).toContain(named);
      expect(body.exitCode).toBe(status === 400 ? 2 : 1);
    }
    // A thread not stepped yet has its start node for head, which is no step: no prompt (a usage error, as `uwf show --prompt`).
    const started = await fetch(`${base}/api/nodes/${(await temp.showThread(thread)).head}/prompt`);
    expect(started.status).toBe(400);
    expect((await errorOf(started)).code).toBe("usage");
  });
});

describe("the actions", () => {
  it("step once, then to the end; a step of an ended thread is a 409 with the CLI's error", async () => {
    const thread = await startThread();
    const { base } = await serve();
    const once = await pagePost(base, `/api/threads/${thread}/step`, {});
    expect(once.status).toBe(200);
    expect(stepResultSchema.parse(await once.json())).toMatchObject({ status: "active", steps: [{ role: "planner" }] });
    const rest = await pagePost(base, `/api/threads/${thread}/step`, { all: true });
    expect(stepResultSchema.parse(await rest.json())).toMatchObject({ status: "ended", steps: [{ role: "doer" }] });
    const again = await pagePost(base, `/api/threads/${thread}/step`, { steps: 1 });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: { code: "thread-ended" }, exitCode: 10 });
  }, 30_000);

  it("refuse a body that is not a JSON object, or a field of the wrong type, with 400", async () => {
    const thread = await startThread();
    const { base } = await serve();
    for (const body of ["{not json", "[1]", JSON.stringify({ steps: 0 }), JSON.stringify({ all: "yes" })]) {
      const response = await pagePost(base, `/api/threads/${thread}/step`, body);
      expect(response.status).toBe(400);
      expect((await errorOf(response)).code).toBe("invalid-body");
    }
    expect((await temp.showThread(thread)).stepCount).toBe(0);
  });

  it("resume a suspended thread with an answer; a resume without one is a usage error (400)", async () => {
    const thread = await startThread(ASK, "Paint it");
    expect((await temp.uwf(["step", thread, "-q"])).exitCode).toBe(20);
    const { base } = await serve();
    const bare = await pagePost(base, `/api/threads/${thread}/resume`, {});
    expect(bare.status).toBe(400);
    expect(await bare.json()).toMatchObject({ error: { code: "usage" }, exitCode: 2 });
    const answered = await pagePost(base, `/api/threads/${thread}/resume`, { prompt: "blue", all: true });
    expect(answered.status).toBe(200);
    expect(stepResultSchema.parse(await answered.json())).toMatchObject({ status: "ended" });
  }, 30_000);

  it("cancel a thread, and queue one for workers", async () => {
    const cancelled = await startThread();
    const queued = await startThread(LINEAR, "for a worker");
    const { base } = await serve();
    const cancel = await pagePost(base, `/api/threads/${cancelled}/cancel`);
    expect(shownThreadSchema.parse(await cancel.json())).toMatchObject({ id: cancelled, status: "cancelled" });
    const queue = await pagePost(base, `/api/threads/${queued}/queue`);
    expect(shownThreadSchema.parse(await queue.json())).toMatchObject({ id: queued, status: "active", queued: true });
    const refused = await pagePost(base, `/api/threads/${cancelled}/queue`);
    expect(refused.status).toBe(409);
    expect((await errorOf(refused)).code).toBe("thread-cancelled");
  }, 30_000);

  it("fork at a step with an edited reply; a reply the role's schema refuses is an error and makes no fork", async () => {
    const thread = await startThread();
    expect((await temp.uwf(["step", thread, "--all", "-q"])).exitCode).toBe(0);
    const planner = (await temp.uwf(["log", thread, "--json"])).json<{ steps: { address: string }[] }>().steps[0]
      ?.address as string;
    const { base } = await serve();
    const forksBefore = listResultSchema.parse(
      await (await fetch(`${base}/api/threads?forksOf=${thread}`)).json(),
    ).total;
    const refused = await pagePost(base, `/api/nodes/${planner}/fork`, { reply: "---\nwrong: field\n---\nNo plan." });
    expect(refused.status).toBe(422);
    const error = await errorOf(refused);
    expect(error.code).toBe("invalid-reply");
    expect(error.message).toContain("plan");
    const after = listResultSchema.parse(await (await fetch(`${base}/api/threads?forksOf=${thread}`)).json());
    expect(after.total).toBe(forksBefore);

    const made = await pagePost(base, `/api/nodes/${planner}/fork`, {
      reply: "---\nplan: write goodbye.txt\n---\nI will write goodbye.txt instead.",
    });
    expect(made.status).toBe(200);
    const fork = forkResultSchema.parse(await made.json());
    const forks = listResultSchema.parse(await (await fetch(`${base}/api/threads?forksOf=${thread}`)).json());
    expect(forks.total).toBe(forksBefore + 1);
    expect(JSON.stringify(fork)).toContain(forks.threads[0]?.id as string);
    const reply = await (await fetch(`${base}/api/threads/${forks.threads[0]?.id}/log`)).json();
    expect(JSON.stringify(reply)).toContain("goodbye.txt");
  }, 30_000);
});

describe("the session token", () => {
  it("is taken from the page URL into an HttpOnly, SameSite=Strict cookie, and the URL is cleaned", async () => {
    const { server, base } = await serve();
    expect(server.url).toBe(`${base}/?token=${TOKEN}`);
    const first = await fetch(`${base}/threads/abc?token=${TOKEN}&x=1`, { redirect: "manual" });
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toBe("/threads/abc?x=1");
    expect(first.headers.get("set-cookie")).toBe(`uwf-ui-${server.port}=${TOKEN}; HttpOnly; SameSite=Strict; Path=/`);
    // A token of an earlier start (a bookmark): the page is served for reading, and no cookie is set.
    const stale = await fetch(`${base}/?token=not-the-token`, { redirect: "manual" });
    expect(stale.status).toBe(303);
    expect(stale.headers.get("location")).toBe("/");
    expect(stale.headers.get("set-cookie")).toBeNull();
    const session = await fetch(`${base}/api/session`, { headers: { cookie: `uwf-ui-${server.port}=${TOKEN}` } });
    expect(await session.json()).toMatchObject({ authorized: true });
  });

  it("is needed by every action: none is 401, a wrong one 403, a cookie from another origin or without one 403", async () => {
    const thread = await startThread();
    const { server, base } = await serve();
    const path = `${base}/api/threads/${thread}/cancel`;
    const none = await fetch(path, { method: "POST", headers: { origin: base } });
    expect(none.status).toBe(401);
    expect((await errorOf(none)).code).toBe("token-required");
    const wrongBearer = await fetch(path, { method: "POST", headers: { authorization: "Bearer nope-nope-nope" } });
    expect(wrongBearer.status).toBe(403);
    expect((await errorOf(wrongBearer)).code).toBe("token-invalid");
    const wrongCookie = await pagePost(
      base,
      `/api/threads/${thread}/cancel`,
      {},
      { cookie: `uwf-ui-${server.port}=nope` },
    );
    expect(wrongCookie.status).toBe(403);
    const otherOrigin = await pagePost(base, `/api/threads/${thread}/cancel`, {}, { origin: "http://evil.example" });
    expect(otherOrigin.status).toBe(403);
    expect((await errorOf(otherOrigin)).code).toBe("forbidden-origin");
    const otherPort = await pagePost(base, `/api/threads/${thread}/cancel`, {}, { origin: "http://127.0.0.1:1" });
    expect(otherPort.status).toBe(403);
    const noOrigin = await fetch(path, { method: "POST", headers: { cookie: `uwf-ui-${server.port}=${TOKEN}` } });
    expect(noOrigin.status).toBe(403);
    expect((await errorOf(noOrigin)).code).toBe("forbidden-origin");
    const crossSite = await pagePost(base, `/api/threads/${thread}/cancel`, {}, { "sec-fetch-site": "cross-site" });
    expect(crossSite.status).toBe(403);
    expect((await errorOf(crossSite)).code).toBe("cross-site");
    expect((await temp.showThread(thread)).status).toBe("active");

    // A script holds the token as a Bearer and may leave Origin out.
    const script = await fetch(path, { method: "POST", headers: { authorization: `Bearer ${TOKEN}` } });
    expect(script.status).toBe(200);
    expect((await temp.showThread(thread)).status).toBe("cancelled");
  }, 30_000);

  it("is new and random on each start when none is given", async () => {
    const first = await serve({ token: undefined });
    const second = await serve({ token: undefined });
    const tokenOf = (url: string) => new URL(url).searchParams.get("token") as string;
    expect(tokenOf(first.server.url).length).toBeGreaterThanOrEqual(32);
    expect(tokenOf(first.server.url)).not.toBe(tokenOf(second.server.url));
  });
});

describe("the Host check", () => {
  it("answers only its own address (127.0.0.1, localhost, [::1] with its port): no DNS rebinding", async () => {
    const { server, base } = await serve();
    for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port}`, `[::1]:${server.port}`]) {
      const response = await fetch(`${base}/api/session`, { headers: { host } });
      expect({ host, status: response.status }).toEqual({ host, status: 200 });
    }
    for (const host of [
      `evil.example:${server.port}`,
      "127.0.0.1",
      `127.0.0.1:${server.port + 1}`,
      `localhost.evil:${server.port}`,
    ]) {
      for (const path of ["/", "/api/threads", "/api/events", "/api/session"]) {
        const response = await fetch(`${base}${path}`, { headers: { host } });
        expect({ host, path, status: response.status }).toEqual({ host, path, status: 403 });
        expect((await errorOf(response)).code).toBe("forbidden-host");
      }
    }
  });
});

describe("--read-only", () => {
  it("serves no action (403 read-only) and says so in the session", async () => {
    const thread = await startThread();
    const { base } = await serve({ readOnly: true });
    expect(await (await fetch(`${base}/api/session`)).json()).toMatchObject({ readOnly: true });
    for (const action of ["step", "resume", "cancel", "queue"]) {
      const response = await pagePost(base, `/api/threads/${thread}/${action}`, { prompt: "x" });
      expect({ action, status: response.status }).toEqual({ action, status: 403 });
      expect((await errorOf(response)).code).toBe("read-only");
    }
    const head = (await temp.showThread(thread)).start;
    const fork = await pagePost(base, `/api/nodes/${head}/fork`);
    expect(fork.status).toBe(403);
    expect(await temp.showThread(thread)).toMatchObject({ status: "active", stepCount: 0 });
    expect((await fetch(`${base}/api/threads/${thread}`)).status).toBe(200);
  });
});

describe("off loopback", () => {
  it("refuses to start without a token or read-only", async () => {
    await expect(serve({ host: "0.0.0.0", token: undefined })).rejects.toThrow("needs a token or read-only");
  });

  it("with a token, needs it for every request, reads and events too; Host is an IP address, localhost or this host", async () => {
    const { server } = await serve({ host: "0.0.0.0" });
    const base = `http://127.0.0.1:${server.port}`;
    expect(server.url).toBe(`http://0.0.0.0:${server.port}/?token=${TOKEN}`);
    for (const path of ["/", "/api/threads", "/api/events", "/api/session"]) {
      const response = await fetch(`${base}${path}`);
      expect({ path, status: response.status }).toEqual({ path, status: 401 });
    }
    const wrong = await fetch(`${base}/?token=not-the-token`, { redirect: "manual" });
    expect(wrong.status).toBe(403);
    expect((await errorOf(wrong)).code).toBe("token-invalid");
    const read = await fetch(`${base}/api/threads`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(read.status).toBe(200);
    const page = await fetch(`${base}/`, { headers: { cookie: `uwf-ui-${server.port}=${TOKEN}` } });
    expect(page.status).toBe(200);
    const rebound = await fetch(`${base}/api/threads`, {
      headers: { authorization: `Bearer ${TOKEN}`, host: `evil.example:${server.port}` },
    });
    expect(rebound.status).toBe(403);
    const byAddress = await fetch(`${base}/api/threads`, {
      headers: { authorization: `Bearer ${TOKEN}`, host: `192.168.7.7:${server.port}` },
    });
    expect(byAddress.status).toBe(200);
  });

  it("read-only without a token serves reads to anyone and no action", async () => {
    const thread = await startThread();
    const { server } = await serve({ host: "0.0.0.0", readOnly: true, token: undefined });
    const base = `http://127.0.0.1:${server.port}`;
    expect((await fetch(`${base}/api/threads/${thread}`)).status).toBe(200);
    const step = await fetch(`${base}/api/threads/${thread}/step`, {
      method: "POST",
      headers: { authorization: `Bearer ${new URL(server.url).searchParams.get("token")}` },
    });
    expect(step.status).toBe(403);
    expect((await errorOf(step)).code).toBe("read-only");
  });
});

describe("the page", () => {
  it("is served under each page path with a strict Content-Security-Policy and the security headers", async () => {
    const { base } = await serve();
    for (const path of ["/", "/threads/01J9", "/steps/ABCD", "/diff/a/b", "/workflows/linear", "/experiments"]) {
      const response = await fetch(`${base}${path}`);
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
      expect(response.headers.get("content-type")).toContain("text/html");
      const policy = response.headers.get("content-security-policy") as string;
      expect(policy).toContain("script-src 'self'");
      expect(policy).not.toContain("unsafe-eval");
      expect(policy).toContain("frame-ancestors 'none'");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("referrer-policy")).toBe("no-referrer");
      const html = await response.text();
      // No inline script: every script comes from this server.
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      for (const [, src] of html.matchAll(/(?:src|href)="(\/[^"]+)"/g)) {
        const asset = await fetch(`${base}${src}`);
        expect({ src, status: asset.status }).toEqual({ src, status: 200 });
        expect(asset.headers.get("x-content-type-options")).toBe("nosniff");
      }
    }
    expect((await fetch(`${base}/no-such-file.js`)).status).toBe(404);
    const api = await fetch(`${base}/api/session`);
    expect(api.headers.get("x-content-type-options")).toBe("nosniff");
    expect(api.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });
});

/** Reads Server-Sent Events off a response: comments, `event:` names, ids and data. */
function eventReader(response: Response) {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  return {
    /** The next frame (up to a blank line), or null when the stream ended. */
    async next(): Promise<string | null> {
      for (;;) {
        const end = buffer.indexOf("\n\n");
        if (end !== -1) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          return frame;
        }
        const { value, done } = await reader.read();
        if (done) return null;
        buffer += decoder.decode(value, { stream: true });
      }
    },
    /** The next frame that is not a comment. */
    async nextEvent(): Promise<string | null> {
      for (;;) {
        const frame = await this.next();
        if (frame === null || !frame.split("\n").every((line) => line.startsWith(":") || line.startsWith("retry:"))) {
          return frame;
        }
      }
    },
    cancel: () => reader.cancel(),
  };
}

function updated(thread: string): LiveEvent {
  return { type: "thread-updated", thread, record: null };
}

describe("GET /api/events", () => {
  it("streams the change feed with ids, per thread on ?thread=, and catches a reconnect up by Last-Event-ID", async () => {
    const { base } = await serve();
    const all = await fetch(`${base}/api/events`);
    expect(all.headers.get("content-type")).toContain("text/event-stream");
    const one = await fetch(`${base}/api/events?thread=T2`);
    const allEvents = eventReader(all);
    const oneEvents = eventReader(one);
    expect(await allEvents.next()).toContain(": connected");
    await oneEvents.next();
    feed?.(updated("T1"));
    feed?.(updated("T2"));
    const first = (await allEvents.nextEvent()) as string;
    const [, bootId, seq] = /^id: (\w+)-(\d+)$/m.exec(first) ?? [];
    expect(first).toContain(`data: ${JSON.stringify(updated("T1"))}`);
    expect(await allEvents.nextEvent()).toContain(
      `id: ${bootId}-${Number(seq) + 1}\ndata: ${JSON.stringify(updated("T2"))}`,
    );
    expect(await oneEvents.nextEvent()).toBe(
      `id: ${bootId}-${Number(seq) + 1}\ndata: ${JSON.stringify(updated("T2"))}`,
    );
    await allEvents.cancel();
    await oneEvents.cancel();

    // Missed while away: T3 and T4 come first on reconnect, after the last id seen.
    feed?.(updated("T3"));
    feed?.(updated("T4"));
    const back = eventReader(
      await fetch(`${base}/api/events`, { headers: { "last-event-id": `${bootId}-${Number(seq) + 1}` } }),
    );
    expect(await back.nextEvent()).toContain(JSON.stringify(updated("T3")));
    expect(await back.nextEvent()).toContain(JSON.stringify(updated("T4")));
    await back.cancel();

    // An id of another start: the page must fetch again.
    for (const id of ["0000-3", "garbage", `${bootId}-999999`]) {
      const reset = eventReader(await fetch(`${base}/api/events`, { headers: { "last-event-id": id } }));
      expect(await reset.nextEvent()).toBe("event: reset\ndata: {}");
      await reset.cancel();
    }
  });

  it("keeps the last 1,000 events: older ones get a reset", async () => {
    const { base } = await serve();
    const live = eventReader(await fetch(`${base}/api/events`));
    await live.next();
    feed?.(updated("first"));
    const first = (await live.nextEvent()) as string;
    const id = (/^id: (\S+)$/m.exec(first) ?? [])[1] as string;
    await live.cancel();
    for (let index = 0; index < 1000; index++) feed?.(updated(`T${index}`));
    // Everything after `first` is still kept…
    const caughtUp = eventReader(await fetch(`${base}/api/events`, { headers: { "last-event-id": id } }));
    expect(await caughtUp.nextEvent()).toContain(JSON.stringify(updated("T0")));
    await caughtUp.cancel();
    // …one more pushes T0 out: a page that saw only `first` cannot be caught up.
    feed?.(updated("T1000"));
    const lost = eventReader(await fetch(`${base}/api/events`, { headers: { "last-event-id": id } }));
    expect(await lost.nextEvent()).toBe("event: reset\ndata: {}");
    await lost.cancel();
  });

  it("sends a heartbeat comment while idle, and ends the stream when the server stops", async () => {
    const { server, base } = await serve({ heartbeatMs: 50 });
    const live = eventReader(await fetch(`${base}/api/events`));
    expect(await live.next()).toContain(": connected");
    expect(await live.next()).toBe(": heartbeat");
    await server.stop();
    let frame: string | null;
    do frame = await live.next();
    while (frame !== null);
    expect(frame).toBeNull();
  });
});
