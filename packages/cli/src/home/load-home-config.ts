// A module of its own so that the lazy import of config loading pulls in only what it needs, not all of @uwf/agent-kit.
export { loadConfig } from "@uwf/agent-kit";
