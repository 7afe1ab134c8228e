import type { Store } from "@uwf/cas";
import { type DiffTarget, diffChains, resolveNodeOrThread } from "@uwf/engine";
import { type DiffResult, nodeKind } from "@uwf/protocol";
import { UsageError } from "../../../errors/usage-error.ts";
import { formatDiff } from "../../../format/experiments/format-diff.ts";
import type { CommandContext } from "../../../pipeline/command-context.ts";
import type { CommandOutcome } from "../../../pipeline/command-outcome.ts";
import { trace } from "../../../trace.ts";

trace("diff command loaded");

export interface DiffCommandOptions {
  left: string;
  right: string;
  /** Add a unified diff of the bodies of each compared pair. */
  bodies?: boolean;
}

/** Two threads, or two start or step nodes, compared from their last common step. */
export async function diffCommand(
  options: DiffCommandOptions,
  context: CommandContext,
): Promise<CommandOutcome<DiffResult>> {
  const store = await context.openStore({ create: false });
  const left = await resolveDiffTarget(store, options.left);
  const right = await resolveDiffTarget(store, options.right);
  trace("targets resolved");
  const result = await diffChains(store, left, right, { bodies: options.bodies === true, trace });
  return { result, format: (value, color) => formatDiff(value, color) };
}

/** As `show` reads its argument: a thread, or a node, by id, address or unique prefix (see resolveNodeOrThread). */
async function resolveDiffTarget(store: Store, reference: string): Promise<DiffTarget> {
  const { address, thread } = await resolveNodeOrThread(store, reference);
  if (address !== null) {
    const kind = nodeKind(await store.objects.get(address));
    if (kind !== "thread-step/1" && kind !== "thread-start/1") {
      throw new UsageError(
        `${reference} is a ${kind ?? "plain JSON"} node; diff compares threads, steps or start nodes`,
      );
    }
    return { head: address, thread: null };
  }
  return { head: thread.head, thread };
}
