import { UwfError } from "@uwf/protocol";

/** `uwf config get KEY` for a key config.yaml does not set: an error, so that scripts notice a typo. */
export class ConfigKeyNotSetError extends UwfError<"config-key-not-set"> {
  static override readonly code = "config-key-not-set" as const;
  static override readonly name = "ConfigKeyNotSetError";

  constructor(key: string, configFile: string) {
    super(`${key} is not set in ${configFile}`, { data: { key } });
  }
}
