import type { CommandOutcome, CommandPath, UiBackend } from "./ui-backend.ts";

/**
 * One endpoint of the JSON API. Every response body is what the matching uwf command prints with `--json`
 * (see `uwf help json`): the API has no second model of the data. A read of a thread's view asks the
 * backend's view methods (the engine's thread view, as the CLI's `show`, `log`, `list` and `tree` print
 * it); any other endpoint runs its command. `mutating` endpoints are POSTs: absent under `--read-only`, and
 * they need the session token.
 */
export type ApiRoute = CommandRoute | ReadRoute;

interface ApiRouteBase {
  method: "GET" | "POST";
  /** A Bun route pattern: `/api/threads/:id`. */
  path: string;
  mutating: boolean;
  /** What is wrong with the request's body, as a usage error's message (400), or null; the command's own flag parsers are not run. */
  check?(body: Record<string, unknown>): string | null;
  /** What is wrong with the request's query (a `limit` that is no count), as a message (400), or null. */
  checkQuery?(query: URLSearchParams): string | null;
  /** The answer when it is less than the command's result (the agent aliases, without their settings). */
  project?(result: unknown): unknown;
  /**
   * The command's error is a verdict on the result it shows, not a failure to show it (`uwf eval show`: a
   * gate that did not hold, samples that errored): the result is answered (200), its verdict inside it.
   */
  verdictInResult?: boolean;
}

/** An endpoint that runs a uwf command: the command, and how the request becomes its options. */
export interface CommandRoute extends ApiRouteBase {
  command: CommandPath;
  options(request: ApiRequest): Record<string, unknown>;
  /** The command for this body, when the body chooses it (`POST /api/threads`: `start`, or `run` to step too). */
  commandFor?(body: Record<string, unknown>): CommandPath;
  /**
   * Texts the command reads from a file (a prompt), by option: each is written to a private file whose path
   * is given as that option, removed once the command is done; an error names the body's `field` instead.
   */
  files?(body: Record<string, unknown>): Record<string, { text: string; field: string }>;
}

/** An endpoint that reads a thread's view (or a node) from the backend: which read, with what. */
export interface ReadRoute extends ApiRouteBase {
  read(backend: UiBackend, request: ApiRequest): Promise<CommandOutcome>;
}

export interface ApiRequest {
  params: Record<string, string>;
  query: URLSearchParams;
  /** The parsed JSON body of a POST (an object), else {}. */
  body: Record<string, unknown>;
}
