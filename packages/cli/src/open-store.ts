import { openFileStore, type Store } from "@uwf/cas";
import { UsageError } from "./errors/usage-error.ts";

/** The default embedded store, or the backend `UWF_STORE` names. */
export async function openStoreFromEnvironment(home: string, env: NodeJS.ProcessEnv): Promise<Store> {
  const url = env.UWF_STORE;
  if (url === undefined || url === "" || url === "file") return openFileStore(home);
  throw new UsageError(`UWF_STORE=${url}: unsupported store (only the embedded file store is available)`);
}
