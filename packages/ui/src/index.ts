export { API_ROUTES, type ApiRequest, type ApiRoute } from "./server/api-routes.ts";
export {
  startUiServer,
  UI_DEFAULT_PORT,
  type UiServer,
  type UiServerOptions,
} from "./server/start-ui-server.ts";
export type { CommandOutcome, CommandPath, UiBackend } from "./server/ui-backend.ts";
