import { UwfError } from "@uwf/protocol";

/** `uwf config get KEY` for a key config.yaml does not set: an error, so that scripts notice a typo. */
export class ConfigKeyNotSetError extends UwfError {
  static readonly code = "config-key-not-set" as const;

  constructor(key: string, configFile: string) {
    super(ConfigKeyNotSetError.code, `${key} is not set in ${configFile}`, { data: { key } });
    this.name = "ConfigKeyNotSetError";
  }
}
