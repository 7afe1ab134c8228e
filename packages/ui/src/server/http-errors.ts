import type { ErrorBody } from "@uwf/protocol";
import type { CommandOutcome } from "./ui-backend.ts";

/**
 * The errors the server itself gives, before any command runs (its checks, an unknown path, a bad
 * body), with their HTTP status. A command's own errors carry the code the CLI reports (`uwf help json`).
 */
export const UI_HTTP_ERRORS = {
  /** The request's `Host` is not this server's address (DNS rebinding): 403. */
  "forbidden-host": 403,
  /** A POST whose `Origin` is missing (with a cookie) or is not this server's origin: 403. */
  "forbidden-origin": 403,
  /** A request a browser marked `Sec-Fetch-Site: cross-site`: 403. */
  "cross-site": 403,
  /** No session token (cookie or `Authorization: Bearer`) where one is needed: 401. */
  "token-required": 401,
  /** A session token that is not this server's: 403. */
  "token-invalid": 403,
  /** An action asked of a server started with `--read-only`: 403. */
  "read-only": 403,
  /** No such API path or page: 404. */
  "not-found": 404,
  /** An API path that exists, with another method: 405. */
  "method-not-allowed": 405,
  /** A POST body that is not a JSON object: 400. */
  "invalid-body": 400,
  /** A query parameter of the wrong kind (`limit=-1`, `limit=abc`): 400. */
  "invalid-query": 400,
  /** The server is stopping: 503. */
  "server-stopping": 503,
} as const;
export type UiHttpErrorCode = keyof typeof UI_HTTP_ERRORS;

/** The headers every answer carries: no sniffing, no referrer, no framing, no caching of API data. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
};

/**
 * The page's Content-Security-Policy: scripts only from this server (the bundle has no inline script),
 * no plugins, no framing, requests only to this server. Styles may also be set inline (`style="…"`),
 * which components and the chart library do; no script can run from a style.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

export function errorResponse(
  code: UiHttpErrorCode,
  message: string,
  data: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Response {
  const body: { error: ErrorBody } = { error: { code, message, data } };
  return Response.json(body, { status: UI_HTTP_ERRORS[code], headers });
}

/** Error codes of things named that are not there; `address-prefix-not-found` is one too. */
function isNotFound(code: string): boolean {
  return code.endsWith("-not-found");
}

/** A thread's state or another process stands in the way: asking again later, or otherwise, may work. */
const CONFLICT_CODES = new Set([
  "thread-ended",
  "thread-suspended",
  "thread-cancelled",
  "thread-failed",
  "thread-already-ended",
  "not-resumable",
  "thread-stranded",
  "thread-exists",
  "budget-exceeded",
  "thread-busy",
  "cancel-pending",
  "head-conflict",
  "lease-lost",
  "ref-store-busy",
  "wait-timeout",
]);

/** Failures of the machine or the store, not of the request: the server's side. */
const SERVER_CODES = new Set([
  "internal",
  "ref-store-damaged",
  "ref-store-unavailable",
  "corrupt-node",
  "broken-chain",
  "no-space",
  "read-only-file-system",
  "permission-denied",
  "io-error",
  "too-many-open-files",
  "lease-renewal-failed",
  "store-too-new",
]);

/**
 * A command's error as an HTTP status: 404 for a thing not found, 400 for a usage error (exit 2),
 * 409 for a thread's state or another process in the way, 503 when the server stops (interrupted) or
 * the store cannot be reached,
 * 500 for the machine's or the store's failures, and 422 for any other failure of the command (an
 * agent that failed, a reply the role's schema refuses, an invalid workflow).
 */
export function statusForError(code: string, exitCode: number): number {
  if (isNotFound(code)) return 404;
  if (exitCode === 2) return 400;
  if (CONFLICT_CODES.has(code)) return 409;
  if (code === "interrupted" || code === "hung-up" || code === "store-unreachable") return 503;
  if (SERVER_CODES.has(code)) return 500;
  return 422;
}

/** A command's outcome as the answer: its `--json` result, or `{error, exitCode}` with the status of its error. */
export function outcomeResponse(outcome: CommandOutcome): Response {
  if (outcome.ok) return Response.json(outcome.result);
  const error = JSON.parse(maskPasswords(JSON.stringify(outcome.error))) as typeof outcome.error;
  return Response.json({ error, exitCode: outcome.exitCode }, { status: statusForError(error.code, outcome.exitCode) });
}

/**
 * Any `scheme://user:password@` in an error (its message, its data), password masked: uwf's errors name
 * a store by its masked URL already; this keeps one quoting a URL some other way from showing it.
 */
export function maskPasswords(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:)[^\s@/]+@/gi, "$1****@");
}
