import type { UwfErrorJson } from "@uwf/protocol";

/** An API call the server refused: the uwf error (code, message, data) the CLI would have reported. */
export class ApiError extends Error {
  readonly error: UwfErrorJson;
  readonly status: number;

  constructor(error: UwfErrorJson, status: number) {
    super(`${error.code}: ${error.message}`);
    this.error = error;
    this.status = status;
  }
}

async function parse<T>(response: Response): Promise<T> {
  const body = (await response.json()) as unknown;
  if (!response.ok) {
    const error = (body as { error?: UwfErrorJson }).error ?? {
      code: "internal",
      message: `HTTP ${response.status}`,
      data: {},
    };
    throw new ApiError(error as UwfErrorJson, response.status);
  }
  return body as T;
}

/** GETs a JSON API path (`/api/threads?status=ended`): the command's `--json` result. */
export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  return parse<T>(await fetch(path, { signal, headers: { accept: "application/json" } }));
}

/** POSTs an action; the session cookie set on the first visit authorises it. */
export async function postJson<T>(path: string, body: Record<string, unknown> = {}): Promise<T> {
  return parse<T>(
    await fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
    }),
  );
}

/** `/api/threads?status=ended&limit=30`, leaving out the parameters that are undefined or empty. */
export function withQuery(path: string, query: Record<string, string | number | boolean | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === "" || value === false) continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text === "" ? path : `${path}?${text}`;
}
