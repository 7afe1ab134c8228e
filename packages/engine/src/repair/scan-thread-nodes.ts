import { readEveryObject, type Store } from "@uwf/cas";
import { type Address, nodeKind, normalizeAddress } from "@uwf/protocol";

/** A thread-step node as a scan keeps it: what links it, and who made it. */
export interface ScannedStep {
  start: Address;
  prev: Address | null;
  run: Address | null;
  startedAt: string;
}

/** What an agent-run node says about the step it became. */
export interface ScannedRun {
  /** The thread that ran it; null on runs written before they named it. */
  thread: string | null;
  /** A replacement reply given by hand (`fork --output`), not an agent's. */
  manual: boolean;
}

/** What a scan of the whole object store learns about threads, without any thread record. */
export interface ThreadNodeScan {
  /** Objects read (corrupt ones included). */
  checked: number;
  steps: Map<Address, ScannedStep>;
  starts: Set<Address>;
  /** Agent runs that name their thread or were given by hand; any other run reads as `{ thread: null, manual: false }`. */
  runs: Map<Address, ScannedRun>;
  /** Every workflow node, by address, with its name. */
  workflows: Map<Address, string>;
}

/**
 * Reads every object once (as verify and gc do) and keeps what recover and the unrecorded-head checks
 * need: each step's links and run, start nodes, who ran each run, and workflow names. Corrupt objects are
 * counted and otherwise skipped: they show as broken chains.
 */
export async function scanThreadNodes(store: Pick<Store, "objects">): Promise<ThreadNodeScan> {
  const scan: ThreadNodeScan = {
    checked: 0,
    steps: new Map(),
    starts: new Set(),
    runs: new Map(),
    workflows: new Map(),
  };
  for await (const object of readEveryObject(store.objects)) {
    scan.checked++;
    if (object.corrupt !== null) continue;
    const { address, node } = object;
    const kind = nodeKind(node);
    const fields = node as Record<string, unknown>;
    if (kind === "thread-start/1") scan.starts.add(address);
    else if (kind === "thread-step/1") {
      const start = addressOrNull(fields.start);
      if (start === null) continue;
      const startedAt = typeof fields.startedAt === "string" ? fields.startedAt : "";
      scan.steps.set(address, { start, prev: addressOrNull(fields.prev), run: addressOrNull(fields.run), startedAt });
    } else if (kind === "agent-run/1") {
      const thread = typeof fields.thread === "string" ? fields.thread : null;
      const manual = fields.extraction === "manual";
      if (thread !== null || manual) scan.runs.set(address, { thread, manual });
    } else if (kind === "workflow/1" && typeof fields.name === "string") scan.workflows.set(address, fields.name);
  }
  return scan;
}

/** The thread that made a step, as its run names it; null when the run does not say. */
export function makerOf(scan: ThreadNodeScan, step: Address): string | null {
  const run = scan.steps.get(step)?.run;
  return run === null || run === undefined ? null : (scan.runs.get(run)?.thread ?? null);
}

/** The chain ending at `head`, oldest first: its start node, then each step; shorter when a link is not stored. */
export function chainOf(scan: ThreadNodeScan, head: Address): Address[] {
  const chain: Address[] = [];
  const seen = new Set<Address>();
  let cursor: Address | null = head;
  while (cursor !== null && !seen.has(cursor)) {
    seen.add(cursor);
    chain.push(cursor);
    const step = scan.steps.get(cursor);
    if (step === undefined) break;
    cursor = step.prev ?? step.start;
  }
  return chain.reverse();
}

function addressOrNull(value: unknown): Address | null {
  return typeof value === "string" ? normalizeAddress(value) : null;
}
