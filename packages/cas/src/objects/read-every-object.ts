import type { Address } from "@uwf/protocol";
import { CorruptNodeError } from "../errors/corrupt-node-error.ts";
import { NodeNotFoundError } from "../errors/node-not-found-error.ts";
import type { ObjectStore } from "./object-store.ts";

/** One stored object as read: its node, or the error that its bytes fail their hash. */
export type ReadObject =
  | { address: Address; node: unknown; corrupt: null }
  | { address: Address; corrupt: CorruptNodeError };

/**
 * Every stored object, read and re-hashed once, for the scans of the whole store (`verify`, and
 * `recover`'s search for lost heads): a corrupt object is yielded with its error rather than thrown,
 * and one deleted since it was listed (by a concurrent gc) is skipped.
 */
export async function* readEveryObject(objects: ObjectStore): AsyncGenerator<ReadObject> {
  for await (const address of objects.list()) {
    let node: unknown;
    try {
      node = await objects.get(address);
    } catch (error) {
      if (error instanceof NodeNotFoundError) continue;
      if (error instanceof CorruptNodeError) {
        yield { address, corrupt: error };
        continue;
      }
      throw error;
    }
    yield { address, node, corrupt: null };
  }
}
