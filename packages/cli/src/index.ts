export { runCli } from "./registry.ts";
