/**
 * A group of samples in words: `case "redirect" of variant "v2"`, `case "redirect"`, `variant "v2"`, or
 * `all samples` when neither is named.
 */
export function describeGroup(variant: string | null, caseName: string | null): string {
  if (caseName !== null && variant !== null)
    return `case ${JSON.stringify(caseName)} of variant ${JSON.stringify(variant)}`;
  if (caseName !== null) return `case ${JSON.stringify(caseName)}`;
  if (variant !== null) return `variant ${JSON.stringify(variant)}`;
  return "all samples";
}
