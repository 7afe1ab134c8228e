import type { ApiRoute } from "./api-route.ts";
import { checkBodyFields } from "./check-body-fields.ts";
import { WORKBENCH_ROUTES } from "./workbench-routes.ts";

/** The query's parameters that are present but not whole numbers of 0 or more: a message, or null. */
function checkCounts(query: URLSearchParams, names: readonly string[]): string | null {
  for (const name of names) {
    const text = query.get(name);
    if (text === null || text === "") continue;
    if (!/^\d{1,15}$/.test(text)) {
      return `the query's "${name}" must be a whole number of 0 or more, not ${JSON.stringify(text)}`;
    }
  }
  return null;
}

function optionalNumber(text: string | null): number | undefined {
  if (text === null || text === "") return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/** The page a list route's query asks for (`?limit=N&offset=M`); either may be absent. */
function pageOf(query: URLSearchParams): { limit: number | undefined; offset: number | undefined } {
  return { limit: optionalNumber(query.get("limit")), offset: optionalNumber(query.get("offset")) };
}

/** A list route's query check: its page's numbers, when given, are whole numbers of 0 or more. */
function checkPage(query: URLSearchParams): string | null {
  return checkCounts(query, ["limit", "offset"]);
}

function optionalText(text: string | null): string | undefined {
  return text === null || text === "" ? undefined : text;
}

function flag(text: string | null): boolean | undefined {
  return text === "1" || text === "true" ? true : undefined;
}

export const API_ROUTES: readonly ApiRoute[] = [
  {
    method: "GET",
    path: "/api/threads",
    mutating: false,
    read: (backend, { query }) =>
      backend.listThreads({
        status: optionalText(query.get("status")),
        outcome: optionalText(query.get("outcome")),
        workflow: optionalText(query.get("workflow")),
        forksOf: optionalText(query.get("forksOf")),
        recursive: flag(query.get("recursive")),
        running: flag(query.get("running")),
        // `uwf list --search`: words matched as word starts in ids, workflows, prompts, roles and field values.
        search: optionalText(query.get("q")),
        ...pageOf(query),
      }),
    checkQuery: checkPage,
  },
  {
    method: "GET",
    path: "/api/threads/:id",
    mutating: false,
    read: (backend, { params }) => backend.show(params.id as string),
  },
  {
    method: "GET",
    path: "/api/threads/:id/log",
    mutating: false,
    read: (backend, { params }) => backend.threadLog(params.id as string),
  },
  {
    method: "GET",
    path: "/api/threads/:id/output",
    mutating: false,
    // What the steps' agents printed as they ran (`uwf log --agent-output [--step N]`); live, `step-output` events.
    read: (backend, { params, query }) => backend.agentOutput(params.id as string, optionalNumber(query.get("step"))),
    checkQuery: (query) => checkCounts(query, ["step"]),
  },
  {
    method: "GET",
    path: "/api/threads/:id/tree",
    mutating: false,
    read: (backend, { params }) => backend.threadTree(params.id as string),
  },
  {
    method: "GET",
    path: "/api/threads/:id/compare",
    command: ["compare"],
    mutating: false,
    options: ({ params }) => ({ reference: params.id }),
  },
  {
    method: "GET",
    path: "/api/nodes/:address",
    mutating: false,
    read: (backend, { params }) => backend.show(params.address as string),
  },
  {
    method: "GET",
    path: "/api/nodes/:address/prompt",
    mutating: false,
    read: (backend, { params }) => backend.show(params.address as string, "prompt"),
  },
  {
    method: "GET",
    path: "/api/nodes/:address/reply",
    mutating: false,
    read: (backend, { params }) => backend.show(params.address as string, "reply"),
  },
  {
    method: "GET",
    path: "/api/diff/:left/:right",
    command: ["diff"],
    mutating: false,
    options: ({ params }) => ({ left: params.left, right: params.right, bodies: true }),
  },
  {
    method: "GET",
    path: "/api/workflows",
    command: ["workflow", "list"],
    mutating: false,
    // The versions stored threads run too: a page links to a thread's workflow whether or not it is registered.
    options: () => ({ threads: true }),
  },
  {
    method: "GET",
    path: "/api/workflows/:reference",
    command: ["workflow", "show"],
    mutating: false,
    options: ({ params }) => ({ reference: params.reference }),
  },
  {
    method: "GET",
    path: "/api/evals",
    command: ["eval", "list"],
    mutating: false,
    options: ({ query }) => ({
      name: optionalText(query.get("name")),
      ...pageOf(query),
    }),
    checkQuery: checkPage,
  },
  {
    method: "GET",
    path: "/api/evals/:id",
    command: ["eval", "show"],
    mutating: false,
    options: ({ params }) => ({ report: params.id }),
    verdictInResult: true,
  },
  {
    method: "GET",
    path: "/api/evals/:baseline/diff/:current",
    command: ["eval", "diff"],
    mutating: false,
    options: ({ params }) => ({ baseline: params.baseline, current: params.current }),
  },
  {
    method: "GET",
    path: "/api/explorations/:id",
    command: ["explore", "show"],
    mutating: false,
    // The page shows errored re-runs and a gate that did not hold; they are no error of the request.
    options: ({ params }) => ({ report: params.id, showOnly: true }),
  },
  {
    method: "POST",
    path: "/api/threads/:id/step",
    command: ["step"],
    mutating: true,
    options: ({ params, body }) => ({
      threads: [params.id],
      all: body.all === true ? true : undefined,
      steps: typeof body.steps === "number" ? body.steps : undefined,
      agent: typeof body.agent === "string" ? body.agent : undefined,
    }),
    check: (body) => checkBodyFields(body, { steps: "positive integer", all: "boolean", agent: "string" }),
  },
  {
    method: "POST",
    path: "/api/threads/:id/resume",
    command: ["resume"],
    mutating: true,
    options: ({ params, body }) => ({
      thread: params.id,
      // A typed answer's fields, as JSON text (never a file name: it starts with `{`), checked by the command as the CLI checks them.
      answer: typeof body.answer === "object" && body.answer !== null ? JSON.stringify(body.answer) : undefined,
      all: body.all === true ? true : undefined,
      agent: typeof body.agent === "string" ? body.agent : undefined,
    }),
    // The answer goes to `--prompt-file`: as `-p` text, an answer of "-" would be read from the server's stdin.
    files: (body): Record<string, { text: string; field: string }> =>
      typeof body.prompt === "string" ? { promptFile: { text: body.prompt, field: "prompt" } } : {},
    check: (body) => checkBodyFields(body, { prompt: "string", answer: "object", all: "boolean", agent: "string" }),
  },
  {
    method: "POST",
    path: "/api/threads/:id/cancel",
    command: ["cancel"],
    mutating: true,
    options: ({ params }) => ({ thread: params.id, wait: true }),
  },
  {
    method: "POST",
    path: "/api/threads/:id/queue",
    command: ["queue"],
    mutating: true,
    options: ({ params }) => ({ thread: params.id }),
  },
  {
    method: "POST",
    path: "/api/nodes/:address/fork",
    command: ["fork"],
    mutating: true,
    // `reply` (the edited reply's text) is written to a file by the server first: see start-ui-server.ts.
    options: ({ params, body }) => ({
      reference: params.address,
      from: typeof body.from === "string" ? body.from : undefined,
      queue: body.queue === true ? true : undefined,
    }),
    check: (body) => checkBodyFields(body, { from: "string", reply: "string", queue: "boolean" }),
  },
  ...WORKBENCH_ROUTES,
];
