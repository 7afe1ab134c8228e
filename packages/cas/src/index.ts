export { canonicalizeJson, canonicalizeJsonBytes } from "./encoding/canonicalize-json.ts";
export { decodeAddress, encodeAddress } from "./encoding/encode-address.ts";
export { addressOfNode, type HashedNode, hashBytes, hashNode } from "./encoding/hash-node.ts";
export { isAddress, parseAddress } from "./encoding/parse-address.ts";
export { isAddressPrefix, MIN_ADDRESS_PREFIX, parseAddressPrefix } from "./encoding/parse-address-prefix.ts";
export {
  AddressPrefixNotFoundError,
  AmbiguousAddressError,
  CorruptNodeError,
  EvalReportExistsError,
  GcRefusedError,
  InvalidAddressError,
  InvalidJsonValueError,
  InvalidRecordError,
  InvalidStoreUrlError,
  NodeNotFoundError,
  RefStoreBusyError,
  RefStoreDamagedError,
  RefStoreUnavailableError,
  ScheduleExistsError,
  StoreRefusedError,
  StoreTooNewError,
  StoreUnreachableError,
  ThreadExistsError,
} from "./errors/index.ts";
export { createFileObjectStore } from "./file/create-file-object-store.ts";
export { forEachConcurrently } from "./file/for-each-concurrently.ts";
export { openFileStore, refDatabasePath } from "./file/open-file-store.ts";
export {
  type FindLeaseCutoffOptions,
  findLeaseCutoff,
  LEASE_CLOCK_MARGIN_MS,
  leaseMayStillCommit,
} from "./lease/find-lease-cutoff.ts";
export { isProcessAlive, isProcessGroupAlive, readProcessStart } from "./lease/is-process-alive.ts";
export { type CopyStoreOptions, copyStore } from "./maintenance/copy-store.ts";
export { DEFAULT_GC_GRACE_MS, type GcStoreOptions, gcStore } from "./maintenance/gc-store.ts";
export { listStoreRoots } from "./maintenance/list-store-roots.ts";
export { verifyStore } from "./maintenance/verify-store.ts";
export { createMemoryObjectStore } from "./memory/create-memory-object-store.ts";
export { createMemoryRefStore } from "./memory/create-memory-ref-store.ts";
export { createMemoryStore } from "./memory/create-memory-store.ts";
export type { ObjectStore, PutManyOptions, TemporaryFileInfo } from "./objects/object-store.ts";
export { type ReadObject, readEveryObject } from "./objects/read-every-object.ts";
export { readPromptText } from "./objects/read-prompt-text.ts";
export { resolveAddress } from "./objects/resolve-address.ts";
export { type WalkNodesOptions, type WalkNodesResult, walkNodes } from "./objects/walk-nodes.ts";
export { isPostgresStoreUrl } from "./postgres/is-postgres-store-url.ts";
export { maskStoreUrl } from "./postgres/mask-store-url.ts";
export { type OpenPostgresStoreOptions, openPostgresStore } from "./postgres/open-postgres-store.ts";
export type { BranchLink, BranchRefs, NewBranch } from "./refs/branch-refs.ts";
export type {
  ChainIndex,
  ChainIndexStep,
  ChainLink,
  ChainRefs,
  ChainStepDetails,
  RecallChainIndexOptions,
} from "./refs/chain-refs.ts";
export type { ChangeFeed, StopWatchingChanges, WatchChangesOptions } from "./refs/change-feed.ts";
export type { EvalReportRefs, ListEvalReportsQuery, ListEvalReportsResult } from "./refs/eval-report-refs.ts";
export type {
  AcquireLeaseOptions,
  AcquireLeaseResult,
  ClaimedThread,
  ClaimThreadOptions,
  LeaseAgent,
  LeaseRefs,
} from "./refs/lease-refs.ts";
export type { RefStore } from "./refs/ref-store.ts";
export type { FireSchedule, ScheduleRefs, ScheduleUpdate } from "./refs/schedule-refs.ts";
export type {
  ReadStepOutputQuery,
  StepOutputChunk,
  StepOutputLog,
  StepOutputStream,
} from "./refs/step-output-log.ts";
export type { StoreClock } from "./refs/store-clock.ts";
export type {
  DeletedThread,
  ListThreadsQuery,
  ListThreadsResult,
  ThreadRefs,
  ThreadUpdate,
} from "./refs/thread-refs.ts";
export {
  SEARCH_COUNT_LIMIT,
  type SearchThreadsQuery,
  type SearchThreadsResult,
  type ThreadSearch,
} from "./refs/thread-search.ts";
export type { WorkflowRegistry } from "./refs/workflow-registry.ts";
export type { WriteTogether } from "./refs/write-together.ts";
export { createSqliteRefStore, type SqliteRefStore } from "./sqlite/create-sqlite-ref-store.ts";
export { type OpenRefDatabaseOptions, REF_SCHEMA_VERSION } from "./sqlite/open-ref-database.ts";
export { findRefDatabaseDamage, setAsideRefDatabase } from "./sqlite/ref-database-damage.ts";
export type { Store } from "./store.ts";
