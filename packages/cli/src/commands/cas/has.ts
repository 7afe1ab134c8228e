import type { CommandContext } from "../../context.ts";
import { EXIT_FAILED, EXIT_OK } from "../../exit-codes.ts";

/** Exit 0 when the node is stored, 1 when it is not: for scripts. */
export async function casHasCommand(options: { address: string }, context: CommandContext) {
  const store = await context.openStore({ create: false });
  const present = await store.objects.has(options.address);
  return {
    result: { address: options.address.toUpperCase(), present },
    format: (value: { present: boolean }) => (value.present ? "yes" : "no"),
    exitCode: present ? EXIT_OK : EXIT_FAILED,
  };
}
