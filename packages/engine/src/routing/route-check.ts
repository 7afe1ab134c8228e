/**
 * What routing made of a reply whose fields passed the schema: the decision, or the problem to send
 * back to the agent. `retry: false` means asking again cannot help (the workflow itself is broken).
 */
export type RouteCheck<Route> = { success: true; route: Route } | { success: false; problem: string; retry: boolean };
