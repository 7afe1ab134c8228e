/** Where a problem sits in the workflow file, as keys and list indices from the root. */
export type FieldPath = readonly (string | number)[];

const PLAIN_KEY = /^[A-Za-z0-9_$-]+$/;

/**
 * `graph.reviewer[1].condition`: dots between keys, brackets around indices,
 * and quoted brackets for keys a reader could not split unambiguously.
 */
export function formatFieldPath(path: FieldPath): string {
  let text = "";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else if (!PLAIN_KEY.test(segment)) text += `[${JSON.stringify(segment)}]`;
    else text += text === "" ? segment : `.${segment}`;
  }
  return text;
}

/** True when `prefix` names `path` itself or one of its ancestors. */
export function isFieldPathPrefix(prefix: FieldPath, path: FieldPath): boolean {
  return prefix.length <= path.length && prefix.every((segment, index) => segment === path[index]);
}
