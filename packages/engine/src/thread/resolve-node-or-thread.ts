import { AddressPrefixNotFoundError, isAddressPrefix, parseAddress, resolveAddress, type Store } from "@uwf/cas";
import type { Address, ThreadRecord } from "@uwf/protocol";
import { ThreadNotFoundError } from "../errors/thread-not-found-error.ts";
import { resolveThread } from "./resolve-thread.ts";

export type NodeOrThread = { address: Address; thread: null } | { address: null; thread: ThreadRecord };

/**
 * What `uwf show` names, as `git show` does: 13 characters are a node's address; anything else names a
 * thread by id or unique prefix, or, when no thread id starts with it, a node by the first 4 or more
 * characters of its address. Threads come first because their ids share leading characters with many
 * addresses: a 4-character thread prefix would otherwise often be ambiguous.
 */
export async function resolveNodeOrThread(
  store: Pick<Store, "objects" | "refs">,
  reference: string,
): Promise<NodeOrThread> {
  if (reference.length === 13) return { address: parseAddress(reference), thread: null };
  try {
    return { address: null, thread: await resolveThread(store.refs, reference) };
  } catch (error) {
    if (!(error instanceof ThreadNotFoundError) || !isAddressPrefix(reference)) throw error;
  }
  try {
    return { address: await resolveAddress(store.objects, reference), thread: null };
  } catch (error) {
    if (error instanceof AddressPrefixNotFoundError) {
      throw new AddressPrefixNotFoundError(reference.toUpperCase(), "thread id or node address");
    }
    throw error;
  }
}
