import { isObject } from "@uwf/protocol";
/** What the Messages API accepts as a custom tool's name. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,128}$/;
/** What the Messages API accepts as a property key in a tool's `input_schema`. */
export const PROPERTY_KEY_PATTERN = /^[a-zA-Z0-9_.-]{1,64}$/;

/**
 * The problem the real Messages API reports for a request's `tools` and
 * `tool_choice`, in its words, or null: custom tool names match
 * `^[a-zA-Z0-9_-]{1,128}$` and are unique, an `input_schema` is an object
 * schema whose property keys match `^[a-zA-Z0-9_.-]{1,64}$` (checked at every
 * level here), and a forced `tool_choice` names a tool of the request.
 */
export function checkRequestTools(body: Record<string, unknown>): string | null {
  const tools = body.tools;
  if (tools !== undefined && !Array.isArray(tools)) return "tools: Input should be a valid list";
  const names = new Set<string>();
  for (const [index, tool] of (tools ?? []).entries()) {
    if (!isObject(tool)) return `tools.${index}: Input should be a valid dictionary`;
    // Server tools (`web_search_…`, `bash_…`) carry a versioned `type` and no input schema.
    const custom = tool.type === undefined || tool.type === "custom";
    const name = typeof tool.name === "string" ? tool.name : "";
    if (custom) {
      const at = `tools.${index}.custom`;
      if (!TOOL_NAME_PATTERN.test(name)) return `${at}.name: String should match pattern '${TOOL_NAME_PATTERN.source}'`;
      if (!isObject(tool.input_schema)) return `${at}.input_schema: Field required`;
      if (tool.input_schema.type !== "object") return `${at}.input_schema.type: Input should be 'object'`;
      const badKeys = findBadPropertyKeys(tool.input_schema, `${at}.input_schema`);
      if (badKeys !== null) return `${badKeys}: Property keys should match pattern '${PROPERTY_KEY_PATTERN.source}'`;
    }
    if (names.has(name)) return "tools: Tool names must be unique.";
    names.add(name);
  }
  const choice = body.tool_choice;
  if (isObject(choice) && choice.type === "tool") {
    if (typeof choice.name !== "string" || !names.has(choice.name)) {
      return `tool_choice.name: Tool '${String(choice.name)}' not found in the request's tools`;
    }
  }
  return null;
}

/** The path of the first `properties` map (at any depth) with a key outside the pattern. */
function findBadPropertyKeys(schema: unknown, path: string): string | null {
  if (Array.isArray(schema)) {
    for (const [index, item] of schema.entries()) {
      const found = findBadPropertyKeys(item, `${path}.${index}`);
      if (found !== null) return found;
    }
    return null;
  }
  if (!isObject(schema)) return null;
  for (const [key, value] of Object.entries(schema)) {
    if (key === "properties" && isObject(value)) {
      if (Object.keys(value).some((property) => !PROPERTY_KEY_PATTERN.test(property))) return `${path}.properties`;
      for (const [property, subschema] of Object.entries(value)) {
        const found = findBadPropertyKeys(subschema, `${path}.properties.${property}`);
        if (found !== null) return found;
      }
      continue;
    }
    if (key === "enum" || key === "const" || key === "examples" || key === "default") continue;
    const found = findBadPropertyKeys(value, `${path}.${key}`);
    if (found !== null) return found;
  }
  return null;
}
