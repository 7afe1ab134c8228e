import type { CommandPath } from "./ui-backend.ts";

/**
 * One endpoint of the JSON API: the uwf command it runs and how the request becomes that command's
 * options. Every response body is that command's `--json` result (see `uwf help json`): the API has
 * no second model of the data. `mutating` endpoints are POSTs: absent under `--read-only`, and they
 * need the session token.
 */
export interface ApiRoute {
  method: "GET" | "POST";
  /** A Bun route pattern: `/api/threads/:id`. */
  path: string;
  command: CommandPath;
  mutating: boolean;
  options(request: ApiRequest): Record<string, unknown>;
  /** What is wrong with the request's body, as a usage error's message (400), or null; the command's own flag parsers are not run. */
  check?(body: Record<string, unknown>): string | null;
  /**
   * The command's error is a verdict on the result it shows, not a failure to show it (`uwf eval show`: a
   * gate that did not hold, samples that errored): the result is answered (200), its verdict inside it.
   */
  verdictInResult?: boolean;
  /** What is wrong with the request's query (a `limit` that is no count), as a message (400), or null. */
  checkQuery?(query: URLSearchParams): string | null;
  /** The command for this body, when the body chooses it (`POST /api/threads`: `start`, or `run` to step too). */
  commandFor?(body: Record<string, unknown>): CommandPath;
  /**
   * Texts the command reads from a file (a prompt), by option: each is written to a private file whose path
   * is given as that option, removed once the command is done; an error names the body's `field` instead.
   */
  files?(body: Record<string, unknown>): Record<string, { text: string; field: string }>;
  /** The answer when it is less than the command's result (the agent aliases, without their settings). */
  project?(result: unknown): unknown;
}

export interface ApiRequest {
  params: Record<string, string>;
  query: URLSearchParams;
  /** The parsed JSON body of a POST (an object), else {}. */
  body: Record<string, unknown>;
}
