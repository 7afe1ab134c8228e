import type { Address } from "@uwf/protocol";

/**
 * A leftover of an interrupted write or gc, never listed as an object file, resolved by `gc`: a
 * `temporary` file of a write that never finished, or an object `set-aside` by a gc killed while
 * deciding whether to delete it (still read as the node).
 */
export interface TemporaryFileInfo {
  /** Opaque to callers; pass it back to `deleteTemporaryFile`. */
  name: string;
  kind: "temporary" | "set-aside";
  /** Milliseconds since the epoch of the last write to it. */
  writtenAt: number;
}

export interface PutManyOptions {
  /** Resolve only once every node is on stable storage, with one sync point for the batch. */
  durable?: boolean;
}

/** Immutable, content-addressed nodes. Every method validates addresses before touching storage. */
export interface ObjectStore {
  /**
   * Writes one node (canonical JSON) and returns its address. An existing address holding the
   * right bytes is not rewritten, but its write time is refreshed, so `gc`'s grace period covers
   * a node from the moment any writer last put it (a step about to link an old, unreachable
   * node); one whose stored bytes went bad is written again, so a put repairs a corrupt object.
   */
  put(node: unknown, options?: PutManyOptions): Promise<Address>;
  /** Writes several nodes as one batch; addresses come back in input order. */
  putMany(nodes: readonly unknown[], options?: PutManyOptions): Promise<Address[]>;
  /** Reads and re-hashes a node. Throws NodeNotFoundError, CorruptNodeError or InvalidAddressError. */
  get(address: string): Promise<unknown>;
  /** The stored canonical bytes, verified like `get`. */
  getBytes(address: string): Promise<Uint8Array>;
  has(address: string): Promise<boolean>;
  /**
   * The stored addresses that start with `prefix` (4 to 13 characters of an address, any case; see
   * parseAddressPrefix), in address order, at most `limit` of them: how a short address typed by a
   * person is resolved. Reads only where such addresses can be (one shard of the file store).
   */
  findAddresses(prefix: string, limit: number): Promise<Address[]>;
  delete(address: string): Promise<void>;
  /**
   * Deletes a node unless it was written or put again at or after `cutoff` (milliseconds since the
   * epoch), deciding in one step with the delete, so a concurrent put that refreshes the node is
   * never undone: true when it was deleted. What `gc` deletes with.
   */
  deleteIfWrittenBefore(address: string, cutoff: number): Promise<boolean>;
  /**
   * Every stored address, in no particular order, without reading or even stat-ing the objects:
   * `verify` reads them all anyway, and `gc` needs the write time only of the unreachable ones.
   * Only `verify` and `gc` call this.
   */
  list(): AsyncIterable<Address>;
  /**
   * Milliseconds since the epoch when the node was last written or put again (what `gc`'s grace
   * period counts from); null when it is not stored.
   */
  writtenAt(address: string): Promise<number | null>;
  /**
   * Leftovers of interrupted writes and gc runs, for `verify` and `gc`; backends whose writes
   * leave none yield nothing. A set-aside object with no object beside it is also listed by
   * `list`, as the node it holds.
   */
  listTemporaryFiles(): AsyncIterable<TemporaryFileInfo>;
  /**
   * Resolves one leftover named by `listTemporaryFiles`: removes a temporary file, and puts a
   * set-aside object back in place (or removes it when the object exists again); any other name
   * is refused before touching storage.
   */
  deleteTemporaryFile(name: string): Promise<void>;
}
