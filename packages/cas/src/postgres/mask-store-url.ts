/**
 * A store URL as uwf shows it, in errors, `config list` and anywhere else: its password replaced
 * by `****`. Text that is not a URL with a password comes back as it is.
 */
export function maskStoreUrl(url: string): string {
  if (!url.includes("@")) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL; mask anything between "scheme://user:" and "@" all the same.
    return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@]*@/i, "$1****@");
  }
  if (parsed.password === "") return url;
  parsed.password = "****";
  return parsed.toString();
}
