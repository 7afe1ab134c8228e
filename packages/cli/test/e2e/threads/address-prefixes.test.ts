import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { nodesSharingAnAddressPrefix } from "@uwf/cas/test";
import {
  casHasResultSchema,
  casPutResultSchema,
  casRefsResultSchema,
  casWalkResultSchema,
  diffResultSchema,
  errorResultSchema,
  expandedNodeSchema,
  forkResultSchema,
  shownThreadSchema,
  startResultSchema,
  stepResultSchema,
} from "@uwf/protocol";
import { createTempHome, LINEAR, SCRIPTED, type TempHome } from "../../helpers/temp-home.ts";

let temp: TempHome;
let thread: string;
let head: string;
/** Two nodes stored with `uwf cas put` whose addresses share their first 4 characters (the first 8-F, so no thread id starts so). */
const shared = nodesSharingAnAddressPrefix({ tag: "e2e-address-prefixes" });

beforeAll(async () => {
  temp = createTempHome();
  thread = startResultSchema.parse((await temp.uwf(["start", LINEAR, "-p", "Task", "--json"])).json()).thread;
  head = stepResultSchema.parse((await temp.uwf(["step", thread, "--agent", SCRIPTED, "--json"])).json()).head;
  for (const node of shared.nodes) {
    const put = await temp.uwf(["cas", "put", "--json"], { stdin: JSON.stringify(node) });
    expect(shared.addresses).toContain(casPutResultSchema.parse(put.json()).address);
  }
});
afterAll(() => temp.cleanup());

/** The `--json` error document of a run that must fail with `exitCode`, and nothing on stdout. */
async function expectError(args: string[], exitCode: number) {
  const result = await temp.uwf([...args, "--json"]);
  expect({ args, exitCode: result.exitCode, stdout: result.stdout }).toEqual({ args, exitCode, stdout: "" });
  return errorResultSchema.parse(JSON.parse(result.stderr)).error;
}

describe("node addresses by prefix", () => {
  it("shows and forks a step by a unique prefix of its address, in any case", async () => {
    const prefix = head.slice(0, 8).toLowerCase();
    const shown = expandedNodeSchema.parse((await temp.uwf(["show", prefix, "--json"])).json());
    expect(shown.address).toBe(head);
    expect(shown.kind).toBe("thread-step/1");
    const forked = forkResultSchema.parse((await temp.uwf(["fork", prefix, "--json"])).json());
    expect(forked.forkedFrom).toMatchObject({ thread, step: 1, address: head, replaced: false });
    const record = shownThreadSchema.parse((await temp.uwf(["show", forked.thread, "--json"])).json());
    expect(record.head).toBe(head);
    expect(record.forkedFrom?.address).toBe(head);
  });

  it("diffs a step named by prefix against a thread", async () => {
    const diffed = await temp.uwf(["diff", head.slice(0, 7), thread, "--json"]);
    expect(diffed.exitCode).toBe(0);
    const result = diffResultSchema.parse(diffed.json());
    expect(result.left).toMatchObject({ thread: null, head });
    expect(result.right).toMatchObject({ thread, head });
    expect(result.commonAddress).toBe(head);
  });

  it("reads a node by prefix with cas get, has, refs and walk", async () => {
    const prefix = head.slice(0, 6);
    const node = (await temp.uwf(["cas", "get", prefix, "--json"])).json();
    expect(node).toEqual((await temp.uwf(["cas", "get", head, "--json"])).json());
    expect(casHasResultSchema.parse((await temp.uwf(["cas", "has", prefix, "--json"])).json())).toEqual({
      address: head,
      present: true,
    });
    const refs = casRefsResultSchema.parse((await temp.uwf(["cas", "refs", prefix, "--json"])).json()).refs;
    expect(refs).toContain((node as { start: string }).start);
    const walked = casWalkResultSchema.parse((await temp.uwf(["cas", "walk", prefix, "--json"])).json()).nodes;
    expect(walked[0]?.address).toBe(head);
  });

  it("refuses a prefix two nodes start with exit 2, listing both, and forks nothing", async () => {
    const candidates = [...shared.addresses].sort();
    const before = await temp.threadCount();
    for (const args of [
      ["show", shared.prefix],
      ["fork", shared.prefix.toLowerCase()],
      ["cas", "get", shared.prefix],
      ["cas", "has", shared.prefix],
    ]) {
      const error = await expectError(args, 2);
      expect(error.code).toBe("ambiguous-address");
      expect(error.message).toBe(
        `address prefix ${shared.prefix} is ambiguous: ${candidates.join(", ")}; give more characters`,
      );
      expect(error.data).toEqual({ prefix: shared.prefix, candidates, more: false });
    }
    const human = await temp.uwf(["fork", shared.prefix]);
    expect(human.exitCode).toBe(2);
    expect(human.stderr).toContain(`ambiguous: ${candidates.join(", ")}`);
    expect(await temp.threadCount()).toBe(before);
    // One character more than they share tells them apart.
    const length = commonLength(candidates) + 1;
    for (const address of candidates) {
      const has = await temp.uwf(["cas", "has", address.slice(0, length), "--json"]);
      expect(casHasResultSchema.parse(has.json())).toEqual({ address, present: true });
    }
  });

  it("refuses a prefix shorter than 4 characters with exit 2 where only nodes are named, creating nothing", async () => {
    for (const args of [
      ["cas", "get", head.slice(0, 3)],
      ["cas", "refs", head.slice(0, 3).toLowerCase()],
      ["cas", "walk", head, "2w5"],
    ]) {
      const error = await expectError(args, 2);
      expect(error.code).toBe("invalid-address");
      expect(error.message).toMatch(
        /^"[0-9a-zA-Z]{3}" is too short to name a node: give at least 4 characters of its address$/,
      );
    }
    // fork, show and diff also take threads, whose prefixes may be shorter: 3 characters are a thread prefix.
    const before = await temp.threadCount();
    const fork = await expectError(["fork", "8ZZ"], 1);
    expect(fork).toMatchObject({ code: "thread-not-found", message: 'no thread "8ZZ" (see `uwf list`)' });
    expect(await temp.threadCount()).toBe(before);
  });

  it("refuses a prefix no node starts with exit 2, and cas has answers no with exit 1", async () => {
    const unused = unusedPrefix();
    const error = await expectError(["cas", "get", unused], 2);
    expect(error).toEqual({
      code: "address-prefix-not-found",
      message: `no node address starts with ${unused}`,
      data: { prefix: unused },
    });
    for (const command of ["show", "fork"]) {
      const refused = await expectError([command, unused], 2);
      expect(refused.code).toBe("address-prefix-not-found");
      expect(refused.message).toBe(`no thread id or node address starts with ${unused}`);
    }
    const has = await temp.uwf(["cas", "has", unused, "--json"]);
    expect(has.exitCode).toBe(1);
    expect(casHasResultSchema.parse(has.json())).toEqual({ address: unused, present: false });
  });

  it("still names threads by prefix first", async () => {
    const record = shownThreadSchema.parse((await temp.uwf(["show", thread.slice(0, 20), "--json"])).json());
    expect(record.id).toBe(thread);
  });
});

/** How many leading characters two addresses share. */
function commonLength([first, second]: string[]): number {
  let length = 0;
  while (first?.[length] !== undefined && first[length] === second?.[length]) length++;
  return length;
}

/** A 6-character prefix no node of the shared pair, the thread's head or anything else here plausibly starts: 8-F first, then a fixed tail. */
function unusedPrefix(): string {
  const taken = new Set([...shared.addresses, head].map((address) => address.slice(0, 6)));
  for (const first of "89ABCDEF") {
    const prefix = `${first}ZZZZZ`;
    if (!taken.has(prefix)) return prefix;
  }
  throw new Error("no unused prefix");
}
