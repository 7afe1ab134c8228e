import { useEffect, useState } from "preact/hooks";
import { getJson } from "./api.ts";

/** What the server says about itself: whether actions are served, and uwf's version. */
export interface Session {
  readOnly: boolean;
  version: string;
}

let loaded: Promise<Session> | undefined;

export function useSession(): Session | null {
  const [session, setSession] = useState<Session | null>(null);
  useEffect(() => {
    loaded ??= getJson<Session>("/api/session");
    void loaded.then(setSession);
  }, []);
  return session;
}

/** Whether the page offers actions: the session is known and the server is not read-only (`--read-only`). */
export function useActionsOffered(): boolean {
  const session = useSession();
  return session !== null && !session.readOnly;
}
