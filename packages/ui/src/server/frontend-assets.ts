import type { HTMLBundle } from "bun";

/** The page and its bundled files (scripts, styles), as served to the browser. */
export interface FrontendAssets {
  /** The page's HTML, or a bundled file by its path (`/chunk-ab12.js`); null for no such file. */
  fetch(path: string): Promise<Response | null>;
  stop(): Promise<void>;
}

/**
 * Bun bundles the HTML import (the page, its scripts and styles) and serves it itself; only its own
 * routes can serve it. So a private server on a free loopback port serves the bundle, and the public
 * server, which checks every request and adds its security headers, fetches from it: the page under
 * `/`, the bundle's files by their hashed paths, each kept in memory after its first request. The
 * private server serves only those static files, no API.
 */
export async function serveFrontend(page: HTMLBundle): Promise<FrontendAssets> {
  const inner = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    development: false,
    routes: { "/": page },
    fetch: () => new Response("not found", { status: 404 }),
  });
  const base = `http://127.0.0.1:${inner.port}`;
  const cache = new Map<string, Promise<{ status: number; body: ArrayBuffer; headers: Headers } | null>>();
  const load = (path: string) => {
    let entry = cache.get(path);
    if (entry === undefined) {
      entry = (async () => {
        const response = await fetch(`${base}${path}`);
        if (response.status !== 200) return null;
        return { status: response.status, body: await response.arrayBuffer(), headers: response.headers };
      })();
      cache.set(path, entry);
      // A failure is not kept: the next request tries again.
      entry.then(
        (value) => value === null && cache.delete(path),
        () => cache.delete(path),
      );
    }
    return entry;
  };
  return {
    async fetch(path) {
      const loaded = await load(path);
      if (loaded === null) return null;
      const headers = new Headers();
      for (const name of ["content-type", "etag", "cache-control"]) {
        const value = loaded.headers.get(name);
        if (value !== null) headers.set(name, value);
      }
      return new Response(loaded.body, { status: loaded.status, headers });
    },
    async stop() {
      await inner.stop(true);
    },
  };
}
