import { maskStoreUrl } from "@uwf/cas";

const SECRET_KEY = /(api[-_]?key|token|secret|password)$/i;

/**
 * Keys that hold secrets are never printed in full: a key ending in `apiKey`, `token`, `secret` or
 * `password`; nor is the password of a URL (`store: postgres://user:PASSWORD@host/db`), under any key.
 */
export function maskSecrets(key: string, value: unknown): unknown {
  if (typeof value === "string") return SECRET_KEY.test(key) ? mask(value) : maskStoreUrl(value);
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => maskSecrets(key, item));
  return Object.fromEntries(Object.entries(value).map(([name, child]) => [name, maskSecrets(`${key}.${name}`, child)]));
}

function mask(secret: string): string {
  return secret.length <= 8 ? "****" : `${secret.slice(0, 3)}…${secret.slice(-2)}`;
}
