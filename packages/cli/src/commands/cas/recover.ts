import { recoverThreads } from "@uwf/engine";
import { type CasRecoverResult, type Config, messageOf } from "@uwf/protocol";
import { EXIT_BUSY, EXIT_FAILED, EXIT_OK } from "../../exit-codes.ts";
import type { CommandContext } from "../../pipeline/command-context.ts";

/**
 * Rebuilds the thread records (and registry entries) the ref store lost, from the chains in the
 * object store; first moves a damaged ref store aside, keeping it. Exit 0 when every lost head was
 * recovered (or none was lost), 75 when a head was left because a step may still be writing it (run
 * it again later), 1 when a chain could not be rebuilt.
 */
export async function casRecoverCommand(context: CommandContext) {
  const { setAsideDamagedRefStore } = await import("../../home/open-store.ts");
  const setAside = await setAsideDamagedRefStore(context.home, context.env, context.now(), context.storeFlag);
  const store = await context.openStore();
  const result: CasRecoverResult = {
    setAside,
    ...(await recoverThreads({ store, host: context.host, now: context.now, config: await configOrNone(context) })),
  };
  const reasons = new Set(result.skipped.map((skipped) => skipped.reason));
  return {
    result,
    format: formatRecoverResult,
    exitCode: reasons.has("broken") ? EXIT_FAILED : reasons.has("in-flight") ? EXIT_BUSY : EXIT_OK,
  };
}

/** The home's config for rebuilt threads' limits; a recovery goes on without it when it cannot be read. */
async function configOrNone(context: CommandContext): Promise<Config | undefined> {
  try {
    return await context.loadConfig();
  } catch (error) {
    context.warn(`config.yaml cannot be read (${messageOf(error)}): rebuilt threads get their workflow's limits only`);
    return undefined;
  }
}

function formatRecoverResult(result: CasRecoverResult): string {
  return [
    ...(result.setAside === null ? [] : [`moved the damaged ref store aside to ${result.setAside}`]),
    ...result.recovered.map(
      (thread) =>
        `recovered thread ${thread.thread} (${thread.workflow}, ${thread.steps} step(s), ${thread.status}${thread.forkedFrom === null ? "" : `, a fork of ${thread.forkedFrom}`}) at ${thread.head}`,
    ),
    ...result.extended.map(
      (thread) =>
        `moved thread ${thread.thread} forward from ${thread.from} to ${thread.head} (${thread.steps} step(s))`,
    ),
    ...result.registered.map((entry) => `registered workflow ${entry.name} at ${entry.address}`),
    ...result.skipped.map((skipped) => `${skipped.reason} ${skipped.head}: ${skipped.message}`),
    ...(result.notRebuilt.length === 0
      ? []
      : [`not rebuilt (only the lost records held it): ${result.notRebuilt.join("; ")}`]),
    `${result.recovered.length} thread(s) recovered, ${result.extended.length} moved forward, ${result.registered.length} workflow(s) registered, ${result.checked} object(s) read`,
  ].join("\n");
}
