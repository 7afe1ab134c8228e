import { asRefStoreError } from "./ref-database-damage.ts";

/**
 * The same methods, each turning SQLite's damage errors (a truncated or overwritten file) into a
 * RefStoreDamagedError naming the file, whenever the damage is first met: a half-truncated
 * database opens fine and fails only on the first page it lacks. Async generator methods are
 * wrapped as generators. Any other error passes unchanged.
 */
export function reportRefDatabaseDamage<Methods extends object>(methods: Methods, path: string): Methods {
  const wrapped: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(methods)) {
    if (typeof method !== "function") wrapped[name] = method;
    else if (method.constructor.name === "AsyncGeneratorFunction") {
      wrapped[name] = async function* (...args: unknown[]) {
        try {
          yield* method(...args);
        } catch (error) {
          throw asRefStoreError(error, path);
        }
      };
    } else {
      wrapped[name] = async (...args: unknown[]) => {
        try {
          return await method(...args);
        } catch (error) {
          throw asRefStoreError(error, path);
        }
      };
    }
  }
  return wrapped as Methods;
}
