export { runCli } from "./pipeline/run-cli.ts";
