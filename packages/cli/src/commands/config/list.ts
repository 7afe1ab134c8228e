import { formatTable } from "../../format/table/format-table.ts";
import type { CommandContext } from "../../pipeline/command-context.ts";
import { listConfigValues } from "./config-values.ts";
import { maskSecrets } from "./mask-secrets.ts";

/** Every set value with its dotted key (defaults included); secrets masked. */
export async function configListCommand(context: CommandContext) {
  const entries = listConfigValues(await context.loadConfig()).map((entry) => ({
    key: entry.key,
    value: maskSecrets(entry.key, entry.value),
  }));
  const result = { entries };
  return {
    result,
    format: (shown: typeof result) =>
      formatTable(
        ["KEY", "VALUE"],
        shown.entries.map((entry) => [entry.key, JSON.stringify(entry.value)]),
      ),
  };
}
