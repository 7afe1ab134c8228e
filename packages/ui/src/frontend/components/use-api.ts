import { useCallback, useEffect, useState } from "preact/hooks";
import { getJson } from "../lib/api.ts";

export interface ApiState<T> {
  data: T | null;
  error: unknown;
  loading: boolean;
  /** Fetches again (after a live event, an action). */
  reload(): void;
}

/** The result of a GET path, fetched when the path changes; null path fetches nothing. */
export function useApi<T>(path: string | null): ApiState<T> {
  const [state, setState] = useState<{ data: T | null; error: unknown; loading: boolean }>({
    data: null,
    error: null,
    loading: path !== null,
  });
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    if (path === null) return;
    const abort = new AbortController();
    setState((previous) => ({ ...previous, loading: true }));
    getJson<T>(path, abort.signal).then(
      (data) => setState({ data, error: null, loading: false }),
      (error: unknown) => {
        if (!abort.signal.aborted) setState({ data: null, error, loading: false });
      },
    );
    return () => abort.abort();
  }, [path, generation]);
  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  return { ...state, reload };
}
