import { afterEach, describe, expect, it } from "bun:test";
import { openFileStore, type Store } from "@uwf/cas";
import { waitFor } from "@uwf/cas/test";
import type { LiveEvent } from "@uwf/protocol";
import { createTempHome, SCRIPTED, type TempHome } from "../../../test/helpers/temp-home.ts";
import { createLiveFeed, type LiveFeed } from "./live-feed.ts";

let opened: { temp: TempHome; store: Store; feed: LiveFeed } | undefined;
afterEach(async () => {
  await opened?.feed.close();
  await opened?.store.close();
  opened?.temp.cleanup();
  opened = undefined;
});

async function openFeed() {
  const temp = createTempHome();
  // The home's store exists before the feed opens it, as under `uwf ui`.
  const thread = await temp.startThread();
  const store = await openFileStore(temp.home);
  const failures: unknown[] = [];
  const feed = createLiveFeed(store, { pollMs: 20, onError: (error) => failures.push(error) });
  opened = { temp, store, feed };
  return { temp, thread, store, feed, failures };
}

async function step(temp: TempHome, thread: string): Promise<void> {
  const run = await temp.uwf(["step", thread, "--agent", SCRIPTED]);
  if (run.exitCode !== 0) throw new Error(`uwf step exited ${run.exitCode}: ${run.stderr}`);
}

const finished = (events: readonly LiveEvent[]) =>
  events.flatMap((event) => (event.type === "step-finished" ? [`${event.thread} ${event.number}`] : []));

describe("uwf ui's live feed", () => {
  it("hands every listener each step a separate uwf step process records, and watches nothing once none listens", async () => {
    const { temp, thread, feed, failures } = await openFeed();
    const first: LiveEvent[] = [];
    const second: LiveEvent[] = [];
    const stopFirst = feed.watch((event) => first.push(event));
    const stopSecond = feed.watch((event) => second.push(event));
    await feed.settled(); // the feed starts with its first listener, a moment after
    await step(temp, thread);
    await waitFor(() => finished(second).length === 1, { what: "step-finished at the second listener" });
    expect(finished(first)).toEqual([`${thread} 1`]);
    expect(second).toEqual(first);

    stopFirst();
    stopSecond();
    await feed.settled();
    await step(temp, thread);

    // A listener that comes later gets a feed again, from its start: not the step recorded while none
    // listened. Its event comes after that step's would have, so by then the first two would have had it.
    const third: LiveEvent[] = [];
    feed.watch((event) => third.push(event));
    await feed.settled();
    const next = await temp.startThread();
    await step(temp, next);
    await waitFor(() => finished(third).length === 1, { what: "step-finished at the later listener" });
    expect(finished(third)).toEqual([`${next} 1`]);
    expect(finished(first)).toEqual([`${thread} 1`]);
    expect(finished(second)).toEqual([`${thread} 1`]);
    expect(failures).toEqual([]);
  });

  it("keeps the feed going when a listener throws, dropping that listener, and hands nothing on once closed", async () => {
    const { temp, thread, store, feed, failures } = await openFeed();
    const kept: LiveEvent[] = [];
    feed.watch(() => {
      throw new Error("a broken page");
    });
    feed.watch((event) => kept.push(event));
    await feed.settled();
    await step(temp, thread);
    await waitFor(() => finished(kept).length === 1, { what: "step-finished" });
    expect(failures).toEqual([new Error("a broken page")]);

    await feed.close();
    const late: LiveEvent[] = [];
    feed.watch((event) => late.push(event));
    // A witness feed on the same store, as quick to look, sees two more steps one after the other: a
    // closed feed still looking would have handed the first of them on by the time the second shows.
    const witness = createLiveFeed(store, { pollMs: 20 });
    const seen: LiveEvent[] = [];
    witness.watch((event) => seen.push(event));
    await witness.settled();
    await step(temp, thread);
    await waitFor(() => finished(seen).length === 1, { what: "the witness's first step-finished" });
    const next = await temp.startThread();
    await step(temp, next);
    await waitFor(() => finished(seen).length === 2, { what: "the witness's second step-finished" });
    await witness.close();
    expect(finished(seen)).toEqual([`${thread} 2`, `${next} 1`]);
    expect(finished(kept)).toEqual([`${thread} 1`]);
    expect(late).toEqual([]);
  });
});
