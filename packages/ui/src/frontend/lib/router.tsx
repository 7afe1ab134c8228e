import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";

/** The page's path and query, as the address bar shows them. */
export interface Location {
  path: string;
  query: URLSearchParams;
}

const listeners = new Set<() => void>();

function current(): Location {
  return { path: window.location.pathname, query: new URLSearchParams(window.location.search) };
}

/** Goes to another page of the app without reloading it (history.pushState). */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace === true) window.history.replaceState(null, "", to);
  else window.history.pushState(null, "", to);
  for (const listener of listeners) listener();
}

window.addEventListener("popstate", () => {
  for (const listener of listeners) listener();
});

export function useLocation(): Location {
  const [location, setLocation] = useState(current);
  useEffect(() => {
    const update = () => setLocation(current());
    listeners.add(update);
    return () => {
      listeners.delete(update);
    };
  }, []);
  return location;
}

/** A link inside the app: a plain `<a href>` (so it opens in a new tab too) that navigates in place on a plain click. */
export function Link(props: {
  href: string;
  class?: string;
  title?: string;
  style?: Record<string, string>;
  "aria-label"?: string;
  children: ComponentChildren;
  [data: `data-${string}`]: string | number | undefined;
}) {
  const { href, children, ...attributes } = props;
  return (
    <a
      {...attributes}
      href={href}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(href);
      }}
    >
      {children}
    </a>
  );
}

/**
 * Matches a path against a pattern with `:name` parts: `/threads/:id` matches `/threads/01J9…` with
 * `{ id: "01J9…" }`; null when it does not match.
 */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const patternParts = pattern.split("/").filter((part) => part !== "");
  const pathParts = path.split("/").filter((part) => part !== "");
  if (patternParts.length !== pathParts.length) return null;
  const params: Record<string, string> = {};
  for (const [index, part] of patternParts.entries()) {
    const actual = pathParts[index] as string;
    if (part.startsWith(":")) params[part.slice(1)] = decodeURIComponent(actual);
    else if (part !== actual) return null;
  }
  return params;
}
