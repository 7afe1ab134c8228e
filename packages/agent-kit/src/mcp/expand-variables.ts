import { MAX_CONFIG_BYTES, safeReadBoundedFile } from "@uwf/workflow";
import { dotenvFilePath, parseDotenv } from "../config/dotenv-file.ts";

export type ExpandedVariables =
  | { success: true; value: Record<string, string> }
  | {
      success: false;
      /** The key whose value names a variable that is not set. */
      key: string;
      /** `KEY: ${NAME} is not set`. */
      error: string;
    };

const VARIABLE_REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * The variables `${NAME}` in config values may name: this process's environment over the uwf home's
 * `.env` (where `uwf setup` keeps keys), so a header or a server's variable can carry a key without
 * config.yaml holding it.
 */
export function variablesForExpansion(
  home: string,
  environment: Readonly<Record<string, string | undefined>> = process.env,
): Record<string, string> {
  const read = safeReadBoundedFile(dotenvFilePath(home), { maxBytes: MAX_CONFIG_BYTES });
  const variables: Record<string, string> = Object.fromEntries(parseDotenv(read.success ? read.value : ""));
  for (const [name, value] of Object.entries(environment)) if (value !== undefined) variables[name] = value;
  return variables;
}

/**
 * Each value of `values` with every `${NAME}` replaced by the variable's value. A variable that is not
 * set is an error naming the key and the variable, rather than an empty header sent to a server.
 */
export function expandVariables(
  values: Readonly<Record<string, string>>,
  variables: Readonly<Record<string, string>>,
): ExpandedVariables {
  const expanded: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    let missing: string | null = null;
    expanded[key] = value.replace(VARIABLE_REFERENCE, (_reference, name: string) => {
      const found = variables[name];
      if (found === undefined) missing ??= name;
      return found ?? "";
    });
    if (missing !== null) return { success: false, key, error: `${key}: \${${missing}} is not set` };
  }
  return { success: true, value: expanded };
}

/** Whether `value` has a `${` that does not make a reference `${NAME}`: a typo config validation points at. */
export function hasMalformedReference(value: string): boolean {
  return value.replace(VARIABLE_REFERENCE, "").includes("${");
}
