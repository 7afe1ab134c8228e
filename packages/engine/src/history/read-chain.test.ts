import { describe, expect, it } from "bun:test";
import { type ChainLink, createMemoryStore, hashNode, type ObjectStore, type RefStore } from "@uwf/cas";
import type { Address, ThreadStartNode, ThreadStepNode } from "@uwf/protocol";
import { indexOfChain, readChain } from "./read-chain.ts";

/** A memory store holding a thread of `steps` steps, with its object reads counted. */
async function threadOf(steps: number) {
  const { objects, refs } = createMemoryStore();
  const workflow = await objects.put({ type: "workflow/1", name: "loop" });
  const start = await objects.put({
    type: "thread-start/1",
    workflow,
    prompt: "Loop.",
    cwd: "/work",
  } satisfies ThreadStartNode);
  const addresses: Address[] = [];
  let prev: Address | null = null;
  for (let index = 0; index < steps; index++) {
    const time = new Date(Date.UTC(2026, 0, 1, 0, index)).toISOString();
    const text = await objects.put({ type: "text/1", text: `step ${index}` });
    prev = await objects.put({
      type: "thread-step/1",
      start,
      prev,
      role: index % 2 === 0 ? "writer" : "reviewer",
      edgePrompt: `Go ${index}.`,
      output: await objects.put({ type: "output/1", fields: { index } }),
      body: text,
      run: text,
      startedAt: time,
      completedAt: time,
    } satisfies ThreadStepNode);
    addresses.push(prev);
  }
  let reads = 0;
  const counted: ObjectStore = {
    ...objects,
    get: (address) => {
      reads++;
      return objects.get(address);
    },
  };
  return { objects: counted, refs, start, addresses, reads: () => reads };
}

const outline = (chain: Awaited<ReturnType<typeof readChain>>) =>
  chain.steps.map((step, index) => [step.address, step.role, chain.nodes[index]?.edgePrompt]);

/** A ref store that fails the test if the chain-link cache is used. */
const withoutLinks = (refs: RefStore): RefStore => ({
  ...refs,
  recallChain: () => Promise.reject(new Error("the chain links were recalled")),
  rememberChainLinks: () => Promise.reject(new Error("chain links were remembered")),
});

describe("readChain", () => {
  it("reads a chain oldest first, and caches its steps for the next reader", async () => {
    const thread = await threadOf(5);
    const head = thread.addresses[4] as Address;
    const chain = await readChain(thread, head.toLowerCase());
    expect(chain.startAddress).toBe(thread.start);
    expect(chain.steps.map((step) => step.address)).toEqual(thread.addresses);
    expect(chain.steps.map((step) => step.role)).toEqual(["writer", "reviewer", "writer", "reviewer", "writer"]);
    expect(thread.reads()).toBe(6);
    expect((await thread.refs.recallChain(head)).map((link) => link.address)).toEqual([...thread.addresses].reverse());
  });

  it("then reads only the head and the start node from the object store, with the same result", async () => {
    const thread = await threadOf(30);
    const head = thread.addresses[29] as Address;
    const cold = await readChain(thread, head);
    const before = thread.reads();
    const warm = await readChain(thread, head);
    expect(thread.reads() - before).toBe(2);
    expect(warm).toEqual(cold);
  });

  it("after a new step, reads the new head and caches it; a fork point reads from the cache too", async () => {
    const thread = await threadOf(10);
    await readChain(thread, thread.addresses[8] as Address);
    let before = thread.reads();
    const chain = await readChain(thread, thread.addresses[9] as Address);
    expect(thread.reads() - before).toBe(2);
    expect(chain.steps).toHaveLength(10);
    before = thread.reads();
    expect((await readChain(thread, thread.addresses[4] as Address)).steps).toHaveLength(5);
    expect(thread.reads() - before).toBe(2);
  });

  it("falls back to the object store past a damaged or misplaced cached link, and heals the cache", async () => {
    const thread = await threadOf(8);
    const head = thread.addresses[7] as Address;
    const truth = await readChain(thread, head);
    const cached = await thread.refs.recallChain(head);
    const damages: Array<(links: ChainLink[]) => ChainLink[]> = [
      (links) => links.map((link, index) => (index === 3 ? { ...link, bytes: new Uint8Array([123, 125]) } : link)),
      (links) => links.map((link, index) => (index === 3 ? (links[5] as ChainLink) : link)),
      (links) => links.map((link, index) => (index === 3 ? { ...link, prev: thread.start } : link)),
      (links) => {
        const forged = hashNode({ type: "text/1", text: "not a step" });
        return links.map((link, index) =>
          index === 3 ? { ...link, address: forged.address, bytes: forged.bytes } : link,
        );
      },
    ];
    for (const damage of damages) {
      const remembered: Address[] = [];
      const refs: RefStore = {
        ...thread.refs,
        recallChain: async () => damage(cached),
        rememberChainLinks: async (links) => {
          remembered.push(...links.map((link) => link.address));
          await thread.refs.rememberChainLinks(links);
        },
      };
      const before = thread.reads();
      const chain = await readChain({ objects: thread.objects, refs }, head);
      expect(outline(chain)).toEqual(outline(truth));
      // The head, the step whose link was damaged and the four before it, the start node.
      expect(thread.reads() - before).toBe(7);
      expect(remembered).toEqual(thread.addresses.slice(0, 5).reverse());
    }
  });

  it("with the thread's chain index ending at the head, reads only the head and the start node", async () => {
    const thread = await threadOf(12);
    const head = thread.addresses[11] as Address;
    const walked = await readChain(thread, head);
    await thread.refs.rememberChainIndex("T", indexOfChain(walked));
    const before = thread.reads();
    const indexed = await readChain({ objects: thread.objects, refs: withoutLinks(thread.refs) }, head, {
      thread: { id: "T", stepCount: 12 },
    });
    expect(thread.reads() - before).toBe(2);
    expect(indexed.steps).toEqual(walked.steps);
    expect(indexed.start).toEqual(walked.start);
    expect(Object.keys(indexed.nodes)).toEqual(["11"]);
    expect([indexed.indexed, walked.indexed]).toEqual([true, false]);
  });

  it("walks the chain when the thread's index ends elsewhere or disagrees with the head node", async () => {
    const thread = await threadOf(6);
    const head = thread.addresses[5] as Address;
    const truth = await readChain(thread, head);
    const index = indexOfChain(truth);
    const steps = index.steps;
    const wrong = [
      { ...index, steps: steps.slice(0, 5) },
      { ...index, steps: [...steps.slice(0, 5), { address: head, role: "someone" }] },
      { ...index, start: thread.addresses[0] as Address },
      { ...index, steps: [...steps.slice(0, 3), steps[4], steps[3], steps[5]] },
      { ...index, steps: steps.slice(4) },
    ];
    for (const stale of wrong) {
      await thread.refs.rememberChainIndex("T", stale as typeof index);
      expect(outline(await readChain(thread, head, { thread: { id: "T", stepCount: 6 } }))).toEqual(outline(truth));
    }
    await thread.refs.rememberChainIndex("T", index);
    expect(outline(await readChain(thread, head, { thread: { id: "T", stepCount: 5 } }))).toEqual(outline(truth));
    expect(outline(await readChain(thread, head, { thread: { id: "U", stepCount: 6 } }))).toEqual(outline(truth));
  });

  it("reads a start node as a chain of no steps, and refuses any other kind of node", async () => {
    const thread = await threadOf(1);
    expect(await readChain(thread, thread.start)).toMatchObject({ startAddress: thread.start, steps: [] });
    const text = await thread.objects.put({ type: "text/1", text: "hello" });
    await expect(readChain(thread, text)).rejects.toThrow("not a thread start or step");
  });
});
