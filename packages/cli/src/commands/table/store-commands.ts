import { type CommandEntry, type CommandGroup, defineCommand, withoutOptions } from "./define-command.ts";
import { parseGcGraceSeconds } from "./option-value-parsers.ts";

const ADDRESS_ARGUMENT = { syntax: "<address>", key: "address" } as const;

const CAS_COMMANDS: readonly CommandEntry[] = [
  defineCommand({
    name: "get",
    description: "print a node's canonical JSON",
    arguments: [ADDRESS_ARGUMENT],
    examples: ["uwf cas get 7QK2M9XH3DP4A"],
    json: "the node itself",
    load: async () => (await import("../cas/get.ts")).casGetCommand,
  }),
  defineCommand({
    name: "put",
    description: "store a JSON document from FILE or stdin; prints its address",
    arguments: [{ syntax: "[file]", key: "file", completes: "file" }],
    examples: ["uwf cas put node.json", "echo '{\"a\":1}' | uwf cas put"],
    json: "casPutResultSchema",
    load: async () => (await import("../cas/put.ts")).casPutCommand,
  }),
  defineCommand({
    name: "has",
    description: "exit 0 when the node is stored, 1 when not",
    arguments: [ADDRESS_ARGUMENT],
    examples: ["uwf cas has 7QK2M9XH3DP4A && echo stored"],
    json: "casHasResultSchema",
    load: async () => (await import("../cas/has.ts")).casHasCommand,
  }),
  defineCommand({
    name: "refs",
    description: "the addresses a node points at",
    arguments: [ADDRESS_ARGUMENT],
    examples: ["uwf cas refs 7QK2M9XH3DP4A"],
    json: "casRefsResultSchema",
    load: async () => (await import("../cas/refs.ts")).casRefsCommand,
  }),
  defineCommand({
    name: "walk",
    description: "every node reachable from the given ones",
    arguments: [{ syntax: "<address...>", key: "addresses" }],
    examples: ["uwf cas walk 7QK2M9XH3DP4A"],
    json: "casWalkResultSchema",
    load: async () => (await import("../cas/walk.ts")).casWalkCommand,
  }),
  defineCommand({
    name: "verify",
    description: "re-hash every object, check what threads reach and every chain index",
    examples: ["uwf cas verify", "uwf cas verify --json"],
    json: "verifyReportSchema",
    load: async () => withoutOptions((await import("../cas/verify.ts")).casVerifyCommand),
  }),
  defineCommand({
    name: "gc",
    description: "delete objects unreachable from threads and the registry, drop damaged chain indexes",
    options: {
      dryRun: { flags: "--dry-run", description: "only report what would be deleted" },
      grace: {
        flags: "--grace <seconds>",
        description: "keep objects younger than this (default 3600, at least 60, at most 100 years)",
        parse: parseGcGraceSeconds,
      },
      force: {
        flags: "--force",
        description: "delete even the nodes of threads no record names (gc refuses otherwise: see cas recover)",
      },
    },
    examples: ["uwf cas gc --dry-run", "uwf cas gc --grace 600"],
    json: "gcReportSchema",
    load: async () => (await import("../cas/gc.ts")).casGcCommand,
  }),
  defineCommand({
    name: "recover",
    description: "rebuild lost thread records from the store's chains (moving a damaged refs.db aside)",
    examples: ["uwf cas recover"],
    json: "casRecoverResultSchema",
    load: async () => withoutOptions((await import("../cas/recover.ts")).casRecoverCommand),
  }),
];

const STORE_COMMANDS: readonly CommandEntry[] = [
  defineCommand({
    name: "copy",
    description: "copy the home's store (or --from another) into another, e.g. a PostgreSQL server",
    options: {
      to: {
        flags: "--to <store>",
        description: "where to: postgres://USER:PASSWORD@HOST/DATABASE[?schema=S], or file (the home)",
        required: true,
      },
      from: { flags: "--from <store>", description: "where from: file (the home, the default) or a URL" },
    },
    examples: [
      "uwf store copy --to postgres://uwf@db.internal/uwf",
      "uwf store copy --from postgres://uwf@db.internal/uwf --to file",
    ],
    json: "storeCopyResultSchema",
    load: async () => (await import("../store/copy.ts")).storeCopyCommand,
  }),
];

/** `uwf cas` and `uwf store`. */
export const STORE_GROUPS: readonly CommandGroup[] = [
  {
    name: "cas",
    description: "content-addressed store plumbing",
    commands: CAS_COMMANDS,
    examples: ["uwf cas verify", "uwf cas gc --dry-run"],
  },
  {
    name: "store",
    description: "move a store: copy a home into a shared PostgreSQL server",
    commands: STORE_COMMANDS,
    examples: ["uwf store copy --to postgres://uwf@db.internal/uwf"],
  },
];
