export type { ApiRequest, ApiRoute, CommandRoute, ReadRoute } from "./server/api-route.ts";
export { API_ROUTES } from "./server/api-routes.ts";
export { EVENT_BUFFER_SIZE, HEARTBEAT_MS } from "./server/event-stream.ts";
export { CONTENT_SECURITY_POLICY, statusForError, UI_HTTP_ERRORS, type UiHttpErrorCode } from "./server/http-errors.ts";
export { isLoopbackHost } from "./server/request-guard.ts";
export {
  startUiServer,
  UI_DEFAULT_PORT,
  type UiServer,
  type UiServerOptions,
} from "./server/start-ui-server.ts";
export type { CommandOutcome, CommandPath, ThreadListRequest, UiBackend } from "./server/ui-backend.ts";
