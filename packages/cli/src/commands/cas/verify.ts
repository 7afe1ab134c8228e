import { listStoreRoots, type Store, verifyStore, walkNodes } from "@uwf/cas";
import { findChainIndexProblems, findUnrecordedHeads, NOT_REBUILT } from "@uwf/engine";
import type { Address } from "@uwf/protocol";
import { EXIT_FAILED, EXIT_OK } from "../../exit-codes.ts";
import type { CommandContext } from "../../pipeline/command-context.ts";

/**
 * Re-hashes every object, checks every thread root and every chain index, reports the heads no record
 * holds (findUnrecordedHeads: lost threads, or a ref store older than its objects), counts what nothing
 * reaches by kind and lists leftovers: the only command besides gc and recover that reads the whole store.
 */
export async function casVerifyCommand(context: CommandContext) {
  const store = await context.openStore({ create: false });
  const report = await verifyStore(store);
  for (const { threadId, address, message } of await findChainIndexProblems(store)) {
    const repair = "it is derived data: `uwf cas gc` drops it, and the thread's next step rebuilds it";
    report.problems.push({ kind: "chain-index", address, thread: threadId, message: `${message}; ${repair}` });
  }
  const unrecorded = await findUnrecordedHeads(store, { now: context.now(), host: context.host });
  for (const head of unrecorded.heads) {
    if (head.steps === 0) continue; // a start node: verifyStore reports it as an unrecorded thread
    const { address, thread, steps, unrecorded: count } = head;
    const whose = thread === null ? "a thread" : `thread ${thread}`;
    const message =
      head.behind === null
        ? `head of ${whose} that no thread record holds (${steps} step(s), ${count} held by no record): \`uwf cas recover\` records it again; gc refuses to run until then`
        : count === 0
          ? `head ${address} of thread ${head.behind.id} is ${steps - head.behind.stepCount} step(s) past its recorded head ${head.behind.head}, steps another thread (a fork) holds: its record was restored from an older copy, and its next step would write a second step ${head.behind.stepCount + 1}; \`uwf cas recover\` moves it forward (its steps refuse until then)`
          : `head ${address} of thread ${head.behind.id} is ${count} step(s) past its recorded head ${head.behind.head} (the ref store is older than its objects): \`uwf cas recover\` moves it forward; gc refuses to run until then`;
    report.problems.push({ kind: "unrecorded-head", address, thread, steps, unrecorded: count, message });
  }
  // A lost thread that took steps is reported once, at its head, rather than at its start node too.
  const startsOfHeads = new Set(unrecorded.heads.filter((head) => head.steps > 0).map((head) => head.start));
  report.problems = report.problems.filter(
    (problem) => problem.kind !== "unrecorded-thread" || !startsOfHeads.has(problem.address),
  );
  // What gc would keep is not collectable: a deleted branch's steps stay reachable from its parent's join.
  report.abandoned = await withoutReachable(store, unrecorded.abandoned);
  report.ok = report.problems.length === 0;
  const problems = report.problems.length;
  return {
    result: report,
    format: (value: typeof report) => {
      const { total, byKind } = value.unreachable;
      const kinds = Object.entries(byKind).map(([kind, count]) => `${count} ${kind}`);
      return [
        ...value.problems.map((problem) => `${problem.kind} ${problem.address}: ${problem.message}`),
        ...value.leftovers.map((leftover) =>
          leftover.kind === "set-aside"
            ? `leftover object set aside by an interrupted gc: ${leftover.name} (still read; \`uwf cas gc\` puts it back)`
            : `leftover temporary file ${leftover.name} (removed by \`uwf cas gc\`)`,
        ),
        ...value.abandoned
          .filter((entry) => entry.reason === "crashed")
          .map(
            (entry) =>
              `settled: step ${entry.address} of thread ${entry.thread} was written by a step that died before moving the head to it (its lease says so); the thread stays at its recorded head, and gc deletes the node once older than its grace`,
          ),
        ...(value.abandoned.length === 0
          ? []
          : [
              `${value.abandoned.length} step(s) their threads went on without, deleted, or left by a crashed step, which gc deletes once older than its grace`,
            ]),
        ...(value.problems.some((problem) => problem.kind === "unrecorded-head" || problem.kind === "unrecorded-thread")
          ? [`recover cannot rebuild what only the lost records held: ${NOT_REBUILT.join("; ")}`]
          : []),
        ...(total === 0
          ? []
          : [`${total} unreachable object(s), which gc deletes once older than its grace: ${kinds.join(", ")}`]),
        `${value.checked} object(s) checked, ${value.problems.length} problem(s)`,
      ].join("\n");
    },
    exitCode: problems === 0 ? EXIT_OK : EXIT_FAILED,
  };
}

/**
 * The abandoned steps that nothing reaches from the store's roots, walked as `uwf cas gc` walks them
 * (every reference, a join's to its branches' heads included), so verify calls collectable only what
 * gc deletes. The walk runs only when there is something to check.
 */
async function withoutReachable<Entry extends { address: Address }>(store: Store, entries: Entry[]): Promise<Entry[]> {
  if (entries.length === 0) return entries;
  const pending = new Set(entries.map((entry) => entry.address));
  const reachable = new Set<Address>();
  await walkNodes(store.objects, await listStoreRoots(store.refs), {
    visit: (address) => {
      if (pending.has(address)) reachable.add(address);
    },
    onMissing: () => {},
  });
  return entries.filter((entry) => !reachable.has(entry.address));
}
