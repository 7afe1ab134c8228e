import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseAddress } from "@uwf/cas";
import type { ForkResult } from "@uwf/protocol";
import type { CommandContext } from "../../context.ts";
import { forkThread } from "../../engine/fork-thread.ts";

export interface ForkCommandOptions {
  hash: string;
  output?: string;
}

export async function forkCommand(options: ForkCommandOptions, context: CommandContext) {
  const address = parseAddress(options.hash);
  const store = await context.openStore();
  const replacementReply =
    options.output === undefined
      ? undefined
      : { file: options.output, text: readFileSync(resolve(context.cwd, options.output), "utf8") };
  const record = await forkThread({ store, address, replacementReply, now: context.now, newId: context.newId });
  const result: ForkResult = { thread: record.id, forkedFrom: address, head: record.head };
  return { result, format: (value: ForkResult) => value.thread };
}
