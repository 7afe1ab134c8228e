import { listStoreRoots, readEveryObject, type Store } from "@uwf/cas";
import { type Address, nodeKind, normalizeAddress } from "@uwf/protocol";

/** What a scan of the whole object store learns about threads, without any thread record. */
export interface StoreScan {
  /** Objects read (corrupt ones included). */
  checked: number;
  /** Step and start nodes that nothing continues and no record reaches: the heads of lost threads. */
  lostHeads: Address[];
  /** Every workflow node, by address, with its name. */
  workflows: Map<Address, string>;
}

interface ScannedStep {
  start: Address;
  prev: Address | null;
}

/**
 * Reads every object once and finds the heads of the threads no record names: a step node that no
 * other step names as `prev`, or a start node that no step names as `start` (a thread with no steps
 * yet), that the ref store's roots (thread heads, starts and fork points) do not reach along
 * `prev`. A fork that took no step of its own shares its head with its origin, and is not found.
 * Corrupt objects are counted and otherwise skipped: they show as broken chains.
 */
export async function findLostHeads(store: Pick<Store, "objects" | "refs">): Promise<StoreScan> {
  const steps = new Map<Address, ScannedStep>();
  const starts = new Set<Address>();
  const continued = new Set<Address>();
  const workflows = new Map<Address, string>();
  let checked = 0;
  for await (const object of readEveryObject(store.objects)) {
    checked++;
    if (object.corrupt !== null) continue;
    const { address, node } = object;
    const kind = nodeKind(node);
    const fields = node as Record<string, unknown>;
    if (kind === "thread-start/1") starts.add(address);
    else if (kind === "thread-step/1") {
      const start = addressOrNull(fields.start);
      const prev = addressOrNull(fields.prev);
      if (start === null) continue;
      steps.set(address, { start, prev });
      continued.add(prev ?? start);
    } else if (kind === "workflow/1" && typeof fields.name === "string") workflows.set(address, fields.name);
  }

  const recorded = new Set<Address>();
  for (const root of await listStoreRoots(store.refs)) {
    for (let cursor: Address | null = root; cursor !== null && !recorded.has(cursor); ) {
      recorded.add(cursor);
      const step = steps.get(cursor);
      if (step !== undefined) recorded.add(step.start);
      cursor = step?.prev ?? null;
    }
  }
  const lostHeads = [...steps.keys(), ...starts].filter((address) => !continued.has(address) && !recorded.has(address));
  return { checked, lostHeads, workflows };
}

function addressOrNull(value: unknown): Address | null {
  return typeof value === "string" ? normalizeAddress(value) : null;
}
