import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InternalError } from "@uwf/protocol";
import page from "../frontend/index.html";
import type { ApiRoute } from "./api-route.ts";
import { API_ROUTES } from "./api-routes.ts";
import { EventHub, HEARTBEAT_MS } from "./event-stream.ts";
import { type FrontendAssets, serveFrontend } from "./frontend-assets.ts";
import {
  CONTENT_SECURITY_POLICY,
  errorResponse,
  maskPasswords,
  outcomeResponse,
  SECURITY_HEADERS,
  type UiHttpErrorCode,
} from "./http-errors.ts";
import {
  hostChecker,
  isLoopbackHost,
  readBearer,
  readCookie,
  sameToken,
  tokenCookieName,
  urlHost,
} from "./request-guard.ts";
import type { CommandOutcome, UiBackend } from "./ui-backend.ts";

/** The port `uwf ui` listens on unless told otherwise; when it is taken, a free one is used. */
export const UI_DEFAULT_PORT = 7323;

export interface UiServerOptions {
  backend: UiBackend;
  host: string;
  /** 0 picks a free port. */
  port: number;
  readOnly: boolean;
  /**
   * The session token mutating requests need; generated when absent. Given on a host other than
   * loopback, every request needs it (reads and events too). A host other than loopback needs a token
   * or `readOnly`.
   */
  token?: string;
  version: string;
  /** Aborted, it interrupts running actions as Ctrl-C interrupts `uwf step` (the CLI passes its stop signal). */
  signal?: AbortSignal;
  /** How often an idle event stream gets a comment line; 15 s unless a test says otherwise. */
  heartbeatMs?: number;
}

export interface UiServer {
  /** The page's address, with the session token for the first visit. */
  url: string;
  port: number;
  /** Interrupts running actions, ends event streams, waits for the answers in flight, and stops listening. */
  stop(reason?: string): Promise<void>;
}

/** The pages the frontend routes itself (app.tsx): each path under them is answered with the page. */
const PAGE_PREFIXES = ["/threads", "/steps", "/diff", "/workflows", "/experiments", "/schedules"];

/** How long stop() waits for actions it interrupted to answer before closing their connections. */
const STOP_WAIT_MS = 10_000;

export async function startUiServer(options: UiServerOptions): Promise<UiServer> {
  const loopback = isLoopbackHost(options.host);
  if (!loopback && options.token === undefined && !options.readOnly) {
    // `uwf ui` refuses this first, with a usage error: a caller reaching here skipped that check.
    throw new InternalError(`a UI on ${options.host}, not a loopback address, needs a token or read-only`);
  }
  const token = options.token ?? randomToken();
  // Off loopback with a token, reads and events need it too; on loopback (or read-only without a token) they are open.
  const tokenForReads = !loopback && options.token !== undefined;
  const stopping = new AbortController();
  const actionSignal =
    options.signal === undefined ? stopping.signal : AbortSignal.any([options.signal, stopping.signal]);
  const hub = new EventHub(options.heartbeatMs ?? HEARTBEAT_MS);
  const unwatch = options.backend.watch((event) => hub.publish(event));
  let frontend: FrontendAssets;
  try {
    frontend = await serveFrontend(page);
  } catch (error) {
    unwatch();
    hub.close();
    throw error;
  }
  const inFlight = new Set<Promise<unknown>>();

  let server: ReturnType<typeof Bun.serve>;
  try {
    server = Bun.serve({
      hostname: options.host,
      port: options.port,
      development: false,
      // Actions (a step, a run to the end) take as long as their agents: no request times out.
      idleTimeout: 0,
      fetch: (request) => {
        const answer = handle(request)
          .catch((error: unknown) =>
            // A bug of the server's, not a command's error (the backend reports those): said as uwf says one.
            Response.json(
              { error: { code: "internal", message: maskPasswords(String(error)), data: {} } },
              { status: 500 },
            ),
          )
          .then(withSecurityHeaders);
        inFlight.add(answer);
        void answer.finally(() => inFlight.delete(answer));
        return answer;
      },
    });
  } catch (error) {
    unwatch();
    hub.close();
    await frontend.stop();
    throw error;
  }
  const port = server.port ?? options.port;
  const hostAllowed = hostChecker(options.host, port);
  const cookieName = tokenCookieName(port);
  const routes = API_ROUTES.map((route) => ({ route, match: compilePattern(route.path) }));

  function credentials(request: Request): { given: string | null; via: "cookie" | "bearer" | null } {
    const bearer = readBearer(request.headers.get("authorization"));
    if (bearer !== null) return { given: bearer, via: "bearer" };
    const cookie = readCookie(request.headers.get("cookie"), cookieName);
    return cookie === null ? { given: null, via: null } : { given: cookie, via: "cookie" };
  }

  /** null when the request carries this server's token; else the refusal. */
  function refuseWithoutToken(request: Request): Response | null {
    const { given } = credentials(request);
    if (given === null) {
      return errorResponse(
        "token-required",
        "this needs the session token: open the URL `uwf ui` printed (with ?token=…), or send Authorization: Bearer TOKEN",
      );
    }
    if (!sameToken(given, token)) {
      return errorResponse("token-invalid", "the session token is not this server's: open the URL `uwf ui` printed");
    }
    return null;
  }

  async function handle(request: Request): Promise<Response> {
    // The Host is checked before the URL is built from it: one holding `@` or `#` makes no URL at all.
    const host = request.headers.get("host");
    if (!hostAllowed(host)) {
      return errorResponse(
        "forbidden-host",
        `this server does not answer for host ${JSON.stringify(host ?? "(none)")}`,
        {
          host,
        },
      );
    }
    const url = new URL(request.url);
    const fetchSite = request.headers.get("sec-fetch-site");
    const isApi = url.pathname === "/api" || url.pathname.startsWith("/api/");
    if (fetchSite === "cross-site" && (isApi || request.method !== "GET")) {
      return errorResponse("cross-site", "cross-site requests are refused");
    }
    if (isApi) return handleApi(request, url);
    if (request.method !== "GET" && request.method !== "HEAD") {
      return errorResponse(
        "method-not-allowed",
        `${request.method} ${url.pathname}: pages are only read (GET)`,
        {},
        {
          allow: "GET, HEAD",
        },
      );
    }
    return handlePage(request, url);
  }

  async function handlePage(request: Request, url: URL): Promise<Response> {
    const isPage = url.pathname === "/" || PAGE_PREFIXES.some((prefix) => isUnder(url.pathname, prefix));
    const given = url.searchParams.get("token");
    if (isPage && given !== null) {
      const valid = sameToken(given, token);
      if (!valid && tokenForReads) {
        return errorResponse("token-invalid", "the session token in the URL is not this server's");
      }
      // The token goes into a cookie the page's scripts cannot read, and out of the address bar and history.
      // A stale one (an address kept from an earlier start) sets nothing: the page reads, and its actions
      // are refused until the URL this start printed is opened (`/api/session` says `authorized: false`).
      url.searchParams.delete("token");
      return new Response(null, {
        status: 303,
        headers: {
          location: `${url.pathname}${url.search}`,
          ...(valid ? { "set-cookie": `${cookieName}=${token}; HttpOnly; SameSite=Strict; Path=/` } : {}),
          "cache-control": "no-store",
        },
      });
    }
    if (tokenForReads) {
      const refused = refuseWithoutToken(request);
      if (refused !== null) return refused;
    }
    // No icon of its own: the browser's request for one gets an empty answer rather than a 404 in its console.
    if (url.pathname === "/favicon.ico") return new Response(null, { status: 204 });
    const answer = await frontend.fetch(isPage ? "/" : url.pathname);
    if (answer === null) return errorResponse("not-found", `no page ${url.pathname}`, { path: url.pathname });
    if (isPage) answer.headers.set("content-security-policy", CONTENT_SECURITY_POLICY);
    return answer;
  }

  async function handleApi(request: Request, url: URL): Promise<Response> {
    if (url.pathname === "/api/session") {
      if (request.method !== "GET") return methodNotAllowed(request, url, "GET");
      if (tokenForReads) {
        const refused = refuseWithoutToken(request);
        if (refused !== null) return refused;
      }
      const { given } = credentials(request);
      return Response.json(
        {
          readOnly: options.readOnly,
          version: options.version,
          authorized: given !== null && sameToken(given, token),
        },
        { headers: { "cache-control": "no-store" } },
      );
    }
    if (url.pathname === "/api/events") {
      if (request.method !== "GET") return methodNotAllowed(request, url, "GET");
      if (tokenForReads) {
        const refused = refuseWithoutToken(request);
        if (refused !== null) return refused;
      }
      return hub.respond(request, url.searchParams.get("thread"), {}, url.searchParams.get("output") === "1");
    }
    const matched = routes
      .map(({ route, match }) => ({ route, params: match(url.pathname) }))
      .filter(
        (candidate): candidate is { route: ApiRoute; params: Record<string, string> } => candidate.params !== null,
      );
    if (matched.length === 0) return errorResponse("not-found", `no API ${url.pathname}`, { path: url.pathname });
    const found = matched.find((candidate) => candidate.route.method === request.method);
    if (found === undefined) {
      return methodNotAllowed(
        request,
        url,
        [...new Set(matched.map((candidate) => candidate.route.method))].join(", "),
      );
    }
    const { route, params } = found;
    if (route.mutating) {
      if (options.readOnly) {
        return errorResponse("read-only", "this server was started with --read-only: it takes no actions", {
          path: url.pathname,
        });
      }
      const refused = refuseWithoutToken(request) ?? refuseOrigin(request);
      if (refused !== null) return refused;
    } else if (tokenForReads) {
      const refused = refuseWithoutToken(request);
      if (refused !== null) return refused;
    }
    let body: Record<string, unknown> = {};
    if (request.method === "POST") {
      const read = await readBody(request);
      if (read === null) return errorResponse("invalid-body", "the request's body is not a JSON object");
      body = read;
    }
    return runRoute(route, params, url, body);
  }

  /** A POST must come from this server's page (its Origin), or from a script holding the token as a Bearer. */
  function refuseOrigin(request: Request): Response | null {
    const origin = request.headers.get("origin");
    if (origin === null) {
      if (credentials(request).via === "bearer") return null;
      return errorResponse(
        "forbidden-origin",
        "an action without an Origin header is refused (scripts: Authorization: Bearer TOKEN)",
      );
    }
    const expected = `http://${request.headers.get("host") ?? ""}`.toLowerCase();
    if (origin.toLowerCase() !== expected) {
      return errorResponse("forbidden-origin", `actions are taken only from this server's own page, not ${origin}`, {
        origin,
      });
    }
    return null;
  }

  async function runRoute(
    route: ApiRoute,
    params: Record<string, string>,
    url: URL,
    body: Record<string, unknown>,
  ): Promise<Response> {
    if (actionSignal.aborted) return errorResponse("server-stopping", "the server is stopping");
    const queryProblem = route.checkQuery?.(url.searchParams) ?? null;
    if (queryProblem !== null) return errorResponse("invalid-query", queryProblem, { path: url.pathname });
    const problem = route.check?.(body) ?? null;
    if (problem !== null) return errorResponse("invalid-body", problem, { path: url.pathname });
    const request = { params, query: url.searchParams, body };
    if ("read" in route) return answer(route, await route.read(options.backend, request));
    const commandOptions = route.options(request);
    let folder: string | null = null;
    /** Each private file written for the command, by the name a refusal gives it instead of its path. */
    const written = new Map<string, string>();
    if (route.command[0] === "fork" && typeof body.reply === "string") {
      // The edited reply goes to `uwf fork --output FILE`: a private file, removed once the fork is made or refused.
      folder = mkdtempSync(join(tmpdir(), "uwf-ui-reply-"));
      const file = join(folder, "reply.md");
      writeFileSync(file, body.reply, { mode: 0o600 });
      commandOptions.output = file;
      written.set(file, "the edited reply");
    }
    for (const [option, { text, field }] of Object.entries(route.files?.(body) ?? {})) {
      folder ??= mkdtempSync(join(tmpdir(), "uwf-ui-text-"));
      const file = join(folder, `${option}.txt`);
      writeFileSync(file, text, { mode: 0o600 });
      commandOptions[option] = file;
      written.set(file, `the body's "${field}"`);
    }
    try {
      // A page that goes away does not stop its action half-way: only the server stopping does (actionSignal).
      const command = route.commandFor?.(body) ?? route.command;
      const outcome = await options.backend.run(command, commandOptions, actionSignal);
      // A refusal names the reply as the page knows it, not by the server's private temporary file.
      return answer(route, folder === null ? outcome : withoutPaths(outcome, written, folder));
    } finally {
      if (folder !== null) rmSync(folder, { recursive: true, force: true });
    }
  }

  return {
    url: `http://${urlHost(options.host)}:${port}/?token=${token}`,
    port,
    async stop(reason = "stopped") {
      if (!stopping.signal.aborted) stopping.abort(reason);
      unwatch();
      hub.close();
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        Promise.allSettled([...inFlight]),
        new Promise((resolve) => {
          timer = setTimeout(resolve, STOP_WAIT_MS);
        }),
      ]);
      clearTimeout(timer);
      await server.stop(true);
      await frontend.stop();
    },
  };
}

/** A command's or a read's outcome as the route answers it: its result, its verdict, or its error. */
function answer(route: ApiRoute, outcome: CommandOutcome): Response {
  if (route.verdictInResult === true && !outcome.ok && outcome.result !== undefined) {
    return Response.json(outcome.result);
  }
  if (route.project !== undefined && outcome.ok) return Response.json(route.project(outcome.result));
  return outcomeResponse(outcome);
}

/** An outcome whose error names a private file (or their `folder`) names what the page sent instead ("the edited reply"). */
function withoutPaths(outcome: CommandOutcome, files: ReadonlyMap<string, string>, folder: string): CommandOutcome {
  if (outcome.ok) return outcome;
  let text = JSON.stringify(outcome.error);
  for (const [file, name] of files) text = text.replaceAll(JSON.stringify(file).slice(1, -1), name);
  text = text.replaceAll(JSON.stringify(folder).slice(1, -1), "the request's folder");
  return { ...outcome, error: JSON.parse(text) as typeof outcome.error };
}

function methodNotAllowed(request: Request, url: URL, allow: string): Response {
  return errorResponse("method-not-allowed", `${request.method} ${url.pathname}: use ${allow}`, {}, { allow });
}

function isUnder(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

/** A route pattern (`/api/threads/:id/log`) as a matcher giving its parameters, decoded, or null. */
function compilePattern(pattern: string): (path: string) => Record<string, string> | null {
  const parts = pattern.split("/");
  return (path) => {
    const segments = path.split("/");
    if (segments.length !== parts.length) return null;
    const params: Record<string, string> = {};
    for (const [index, part] of parts.entries()) {
      const segment = segments[index] as string;
      if (part.startsWith(":")) {
        if (segment === "") return null;
        try {
          params[part.slice(1)] = decodeURIComponent(segment);
        } catch {
          return null;
        }
      } else if (part !== segment) return null;
    }
    return params;
  };
}

async function readBody(request: Request): Promise<Record<string, unknown> | null> {
  const text = await request.text();
  if (text.trim() === "") return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

function withSecurityHeaders(response: Response): Response {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    if (!response.headers.has(name)) response.headers.set(name, value);
  }
  if (!response.headers.has("content-security-policy")) {
    response.headers.set("content-security-policy", "default-src 'none'; frame-ancestors 'none'");
  }
  return response;
}

function randomToken(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("base64url");
}

export type { UiHttpErrorCode };
