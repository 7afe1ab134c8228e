import { describe, expect, it } from "bun:test";
import { type ShownThread, shownThreadSchema } from "@uwf/protocol";
import { createTempHome, type TempHome } from "../../helpers/temp-home.ts";
import { type RunningUi, startUi } from "../../helpers/ui-browser.ts";
import {
  branchOf,
  type CompositionStore,
  compositionFixture,
  compositionStore,
  type ExpectedCounts,
  STORES,
  type StoreKind,
  useStoreEnv,
} from "./composition-kit.ts";

/**
 * UI action × branch: a fan-out's parent and its branches stepped, answered and cancelled through the web
 * API (the page's buttons), as a person at `uwf ui` would, on the embedded store and on PostgreSQL. Each
 * runs to its end; the record, every view's counts (the API's among them: the thread page's "Steps taken
 * N of M" is its budget) and `cas verify` agree.
 */
const storeEnv = useStoreEnv();
const ASK = compositionFixture("review-ask");

/** A home whose every command and `uwf ui` use `kind`'s store, and the scripted agent as the default. */
function storeFor(kind: StoreKind): CompositionStore {
  const env = storeEnv(kind);
  const temp = createTempHome({ env });
  temp.writeConfig(
    ["agents:", `  scripted-ask: { builtin: scripted, scenario: ${ASK.scenario} }`, "defaultAgent: scripted-ask"].join(
      "\n",
    ),
  );
  return compositionStore(temp, env);
}

async function withUi<T>(temp: TempHome, use: (ui: RunningUi, token: string) => Promise<T>): Promise<T> {
  const ui = await startUi(temp);
  try {
    return await use(ui, new URL(ui.url).searchParams.get("token") as string);
  } finally {
    await ui.stop();
  }
}

/** A page's action: POST with the token, the command's result or its error document, and the status. */
async function act(ui: RunningUi, token: string, path: string, body: unknown = {}) {
  const answer = await fetch(`${ui.origin}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

/** The thread as the page reads it (`GET /api/threads/:id`). */
async function pageThread(ui: RunningUi, id: string): Promise<ShownThread> {
  return shownThreadSchema.parse(await (await fetch(`${ui.origin}/api/threads/${id}`)).json());
}

/** The page's thread (its counts and "Steps taken N of M") is the CLI's: one count of steps. */
async function expectPageCounts(ui: RunningUi, store: CompositionStore, id: string) {
  const page = await pageThread(ui, id);
  const cli = await store.show(id);
  expect(page.counts).toEqual(cli.counts);
  expect(page.stepCount).toBe(cli.stepCount);
  expect(page.budget).toEqual(cli.budget);
  // A thread with its own budget (a branch's is its parent's): the page's "Steps taken N of M".
  if (cli.budget !== undefined) expect(page.budget?.spent.steps).toBe(cli.counts?.budgetSteps);
}

describe.each(STORES)("UI action × branch (%s store)", (kind) => {
  it("steps a fan-out and each branch from the page, answers the asking branch, and joins to the end", async () => {
    const store = storeFor(kind);
    try {
      const parent = (await store.json<{ thread: string }>(["start", ASK.workflow, "-p", "Ship the cache"])).thread;
      await withUi(store.temp, async (ui, token) => {
        // The parent's Step: the planner fans out; the parent waits for its branches.
        const fanned = await act(ui, token, `/api/threads/${parent}/step`);
        expect(fanned.status).toBe(200);
        expect((await store.show(parent)).status).toBe("waiting");
        const threads = await store.list();
        const check = branchOf(threads, parent, "check");
        const gate = branchOf(threads, parent, "gate");
        // Each branch's Step, on its own page.
        expect((await act(ui, token, `/api/threads/${check.id}/step`)).status).toBe(200);
        expect((await store.show(check.id)).status).toBe("ended");
        const asked = await act(ui, token, `/api/threads/${gate.id}/step`);
        expect(asked.status).toBe(200);
        expect(await store.show(gate.id)).toMatchObject({ status: "suspended" });
        expect((await store.show(parent)).status).toBe("waiting");
        // The asking branch answered from its page's form (a typed answer).
        const answered = await act(ui, token, `/api/threads/${gate.id}/resume`, {
          answer: { approved: true, comment: "go ahead" },
        });
        expect(answered.status).toBe(200);
        expect((await store.show(gate.id)).status).toBe("ended");
        // The parent's Run: the join, to the end.
        const joined = await act(ui, token, `/api/threads/${parent}/step`, { all: true });
        expect(joined.status).toBe(200);
        const ended = await store.show(parent);
        expect(ended).toMatchObject({ status: "ended", outcome: { role: "merger", status: "shipped" } });

        // The parent took 2 steps; its branches 1 (check) and 2 (gate: the question and the answered step).
        const counts: ExpectedCounts = { steps: 2, inherited: 0, replaced: 0, taken: 2, branchSteps: 3 };
        await store.expectCounts(parent, counts);
        await store.expectCounts(gate.id, { steps: 3, inherited: 1, replaced: 0, taken: 2, branchSteps: 0 });
        // A fork of the answered branch, from its page: it inherits the branch's three steps and took none
        // (the page once said "Steps 0" beside its step rows).
        const gateHead = (await store.show(gate.id)).head;
        const forked = await act(ui, token, `/api/nodes/${gateHead}/fork`, { from: gate.id });
        expect(forked.status).toBe(200);
        const fork = forked.body.thread as string;
        await store.expectCounts(fork, { steps: 3, inherited: 3, replaced: 0, taken: 0, branchSteps: 0 });
        for (const id of [parent, check.id, gate.id, fork]) await expectPageCounts(ui, store, id);
      });
      await store.expectVerifies();
    } finally {
      store.temp.cleanup();
    }
  }, 120_000);

  it("cancels a branch from its page: the other branch still ends, and the parent fails as policy all says", async () => {
    const store = storeFor(kind);
    try {
      const parent = (await store.json<{ thread: string }>(["start", ASK.workflow, "-p", "Ship the cache"])).thread;
      await withUi(store.temp, async (ui, token) => {
        expect((await act(ui, token, `/api/threads/${parent}/step`)).status).toBe(200);
        const threads = await store.list();
        const check = branchOf(threads, parent, "check");
        const gate = branchOf(threads, parent, "gate");
        expect((await act(ui, token, `/api/threads/${gate.id}/step`)).status).toBe(200);
        const cancelled = await act(ui, token, `/api/threads/${gate.id}/cancel`);
        expect(cancelled.status).toBe(200);
        expect((await store.show(gate.id)).status).toBe("cancelled");
        expect((await act(ui, token, `/api/threads/${check.id}/step`)).status).toBe(200);
        expect((await store.show(check.id)).status).toBe("ended");
        // policy all: a cancelled branch fails the join (branch-failed); nothing else ran.
        await act(ui, token, `/api/threads/${parent}/step`, { all: true });
        const failed = await store.show(parent);
        expect(failed.status).toBe("failed");
        expect(failed.failure?.code).toBe("branch-failed");
        // A cancelled branch is not stepped again from its page.
        const refused = await act(ui, token, `/api/threads/${gate.id}/step`);
        expect(refused.status).toBeGreaterThanOrEqual(400);
        await store.expectCounts(parent, { steps: 1, inherited: 0, replaced: 0, taken: 1, branchSteps: 2 });
        for (const id of [parent, check.id, gate.id]) await expectPageCounts(ui, store, id);
      });
      await store.expectVerifies();
    } finally {
      store.temp.cleanup();
    }
  }, 120_000);
});
