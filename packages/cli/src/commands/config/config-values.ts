import { configFilePath, InvalidConfigError, readConfigText, safeParseConfig } from "@uwf/agent-kit";
import type { Config } from "@uwf/protocol";
import { type Document, parse, parseDocument } from "yaml";
import { writeFileAtomically } from "../../home/write-file-atomically.ts";

/** One setting as `uwf config list` prints it. */
export interface ConfigEntry {
  key: string;
  value: unknown;
}

/** The value at a dotted key (`agents.claude.command`), or undefined when it is not set. */
export function getConfigValue(config: Config, key: string): unknown {
  let value: unknown = config;
  for (const segment of splitKey(key)) {
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, segment)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

/** Every setting with a value, defaults included, as dotted keys; lists are single values. */
export function listConfigValues(config: Config): ConfigEntry[] {
  const entries: ConfigEntry[] = [];
  const visit = (value: unknown, key: string): void => {
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      for (const [name, child] of Object.entries(value)) visit(child, key === "" ? name : `${key}.${name}`);
    } else if (value !== undefined) {
      entries.push({ key, value });
    }
  };
  visit(config, "");
  return entries;
}

/**
 * Sets one dotted key in `config.yaml`, keeping the rest of the file (comments
 * included). The value is read as YAML, so `3` is a number, `true` a boolean
 * and `[a, b]` a list; text that is not valid YAML is kept as a string. The
 * whole config is checked before anything is written; the write is atomic.
 */
export async function setConfigValue(
  home: string,
  key: string,
  valueText: string,
  options: EditConfigOptions = {},
): Promise<Config> {
  return setConfigValues(home, [{ key, valueText }], options);
}

/** One key for `setConfigValues`: a dotted key and its value as YAML text, as `uwf config set` takes them. */
export interface ConfigSetting {
  key: string;
  valueText: string;
}

/**
 * Sets several dotted keys in `config.yaml` in order, as `setConfigValue` one by one would (each
 * edit is checked against the schema, and refused with the same message), but writes the file once,
 * atomically, at the end: a reader never sees it half set up, and a refused edit writes nothing.
 */
export async function setConfigValues(
  home: string,
  settings: readonly ConfigSetting[],
  options: EditConfigOptions = {},
): Promise<Config> {
  return editConfig(
    home,
    settings.map(({ key, valueText }) => ({
      key,
      verb: "set" as const,
      edit: (document: Document, path: string[]) => document.setIn(path, parseValueText(valueText)),
    })),
    options,
  );
}

/** Removes one dotted key from `config.yaml` (its default applies again). */
export async function unsetConfigValue(home: string, key: string, options: EditConfigOptions = {}): Promise<Config> {
  return editConfig(
    home,
    [
      {
        key,
        verb: "unset",
        edit: (document, path) => {
          document.deleteIn(path);
        },
      },
    ],
    options,
  );
}

export interface EditConfigOptions {
  /**
   * Sees the config as the edit would leave it, once it has passed the schema, before anything is
   * written: throwing refuses the edit (`uwf config set` refuses an unknown agent alias this way).
   */
  check?: (config: Config, previous: Config) => void;
}

/** One change to the YAML document at a dotted key. */
interface ConfigEdit {
  key: string;
  verb: "set" | "unset";
  edit: (document: Document, path: string[]) => void;
}

async function editConfig(home: string, edits: readonly ConfigEdit[], options: EditConfigOptions): Promise<Config> {
  const file = configFilePath(home);
  const paths = edits.map(({ key, verb }) => {
    const path = splitKey(key);
    if (path.length === 0 || path.some((segment) => segment === "")) {
      throw new InvalidConfigError(
        file,
        [
          {
            line: null,
            column: null,
            path: key,
            message: "expected a dotted key such as defaultAgent or agents.NAME.command",
          },
        ],
        `cannot ${verb} "${key}"`,
      );
    }
    return path;
  });
  const text = readConfigText(file);
  if (typeof text !== "string") throw text;
  const current = safeParseConfig(text, file);
  if (!current.success) throw current.error;
  const document: Document = parseDocument(text);
  if (document.contents === null) document.contents = document.createNode({});
  let updated = text;
  let config = current.value;
  for (const [index, { key, verb, edit }] of edits.entries()) {
    edit(document, paths[index] as string[]);
    updated = document.toString();
    const parsed = safeParseConfig(updated, file);
    if (!parsed.success)
      throw new InvalidConfigError(
        file,
        parsed.error.problems,
        `cannot ${verb} "${key}": ${file} would become invalid`,
      );
    options.check?.(parsed.value, config);
    config = parsed.value;
  }
  await writeFileAtomically(file, updated);
  return config;
}

function parseValueText(valueText: string): unknown {
  if (valueText.trim() === "") return valueText;
  try {
    return parse(valueText);
  } catch {
    return valueText;
  }
}

function splitKey(key: string): string[] {
  return key === "" ? [] : key.split(".");
}
