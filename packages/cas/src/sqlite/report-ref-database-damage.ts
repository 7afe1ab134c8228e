import { translateErrors } from "../errors/translate-errors.ts";
import { asRefStoreError } from "./ref-database-damage.ts";

/**
 * The same methods, each turning SQLite's damage errors (a truncated or overwritten file) into a
 * RefStoreDamagedError naming the file, whenever the damage is first met: a half-truncated
 * database opens fine and fails only on the first page it lacks. Any other error passes unchanged.
 */
export function reportRefDatabaseDamage<Methods extends object>(methods: Methods, path: string): Methods {
  return translateErrors(methods, (error) => asRefStoreError(error, path));
}
