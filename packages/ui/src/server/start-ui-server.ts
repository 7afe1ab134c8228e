import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import page from "../frontend/index.html";
import { API_ROUTES, type ApiRoute } from "./api-routes.ts";
import type { CommandOutcome, UiBackend } from "./ui-backend.ts";

/** The port `uwf ui` listens on unless told otherwise; when it is taken, a free one is used. */
export const UI_DEFAULT_PORT = 7323;

export interface UiServerOptions {
  backend: UiBackend;
  host: string;
  /** 0 picks a free port. */
  port: number;
  readOnly: boolean;
  /** The session token mutating requests need; generated when absent. */
  token?: string;
  version: string;
}

export interface UiServer {
  /** The page's address, with the session token for the first visit. */
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** The pages the frontend routes itself: every one serves the same HTML. */
const PAGE_PATHS = [
  "/",
  "/threads/*",
  "/steps/*",
  "/diff/*",
  "/workflows",
  "/workflows/*",
  "/experiments",
  "/experiments/*",
];

export async function startUiServer(options: UiServerOptions): Promise<UiServer> {
  const token = options.token ?? randomToken();
  const abort = new AbortController();
  const routes: Record<string, unknown> = {};
  for (const path of PAGE_PATHS) routes[path] = page;
  for (const route of API_ROUTES) {
    if (route.mutating && options.readOnly) continue;
    const handlers = (routes[route.path] ?? {}) as Record<string, (request: Request) => Promise<Response>>;
    routes[route.path] = handlers;
    handlers[route.method] = (request) => handleApi(route, request, options.backend, abort.signal);
  }
  routes["/api/session"] = () => Response.json({ readOnly: options.readOnly, version: options.version });
  const server = Bun.serve({
    hostname: options.host,
    port: options.port,
    development: false,
    idleTimeout: 0,
    // biome-ignore lint/suspicious/noExplicitAny: the route table is built at run time; Bun checks it when serving.
    routes: routes as any,
    fetch: () => Response.json({ error: { code: "not-found", message: "no such page", data: {} } }, { status: 404 }),
  });
  const port = server.port ?? options.port;
  return {
    url: `http://${options.host}:${port}/?token=${token}`,
    port,
    async stop() {
      abort.abort();
      await server.stop(true);
    },
  };
}

async function handleApi(route: ApiRoute, request: Request, backend: UiBackend, signal: AbortSignal) {
  const url = new URL(request.url);
  const body = request.method === "POST" ? await readBody(request) : {};
  const params = (request as Request & { params?: Record<string, string> }).params ?? {};
  const options = route.options({ params, query: url.searchParams, body });
  let folder: string | null = null;
  if (route.command[0] === "fork" && typeof body.reply === "string") {
    folder = mkdtempSync(join(tmpdir(), "uwf-ui-reply-"));
    const file = join(folder, "reply.md");
    writeFileSync(file, body.reply);
    options.output = file;
  }
  try {
    return toResponse(await backend.run(route.command, options, signal));
  } finally {
    if (folder !== null) rmSync(folder, { recursive: true, force: true });
  }
}

async function readBody(request: Request): Promise<Record<string, unknown>> {
  const text = await request.text();
  if (text === "") return {};
  const value: unknown = JSON.parse(text);
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function toResponse(outcome: CommandOutcome): Response {
  if (outcome.ok) return Response.json(outcome.result);
  const status = outcome.exitCode === 2 ? 400 : outcome.error.code.endsWith("-not-found") ? 404 : 409;
  return Response.json({ error: outcome.error, exitCode: outcome.exitCode }, { status });
}

function randomToken(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("base64url");
}
