import type { JsonSchemaObject } from "@uwf/protocol";
import {
  CONVENTION_KEYWORD,
  listStatusBranches,
  REASON_FIELD,
  STATUS_FIELD,
  type StatusBranch,
  SUSPEND_STATUS,
} from "@uwf/workflow";
import { buildExampleFrontmatter } from "./build-example-frontmatter.ts";
import { formatRoutes } from "./describe-routes.ts";
import { asObject, describeSchemaFields, type SchemaFieldDescription } from "./describe-schema-fields.ts";
import { fenceText } from "./fence-text.ts";

export interface BuildOutputFormatSectionOptions {
  /** Markdown level of the section's heading; its parts are one level deeper. Default 1. */
  headingLevel?: number;
  /** Where each reply leads (`describeRoutes`), told with the status; none when not given. */
  routes?: readonly string[];
}

/**
 * Tells the agent how to shape its reply, from the role's JSON Schema (or the
 * reply schema of `buildReplySchema`): every field with its type, whether it is
 * required, its allowed values and description, the `$status`/`$SUSPEND`
 * convention, where each status leads (`routes`), and an example reply — one
 * per status for per-status outputs. Deterministic: same schema, same text.
 */
export function buildOutputFormatSection(
  schema: JsonSchemaObject | undefined,
  options: BuildOutputFormatSectionOptions = {},
): string {
  const level = options.headingLevel ?? 1;
  const heading = "#".repeat(level);
  const subheading = "#".repeat(level + 1);
  const roleSchema = schema ?? { type: "object" };
  const intro =
    "Start your reply with YAML frontmatter: a line `---`, the fields below as YAML, and a closing `---` line. " +
    "After it, write your answer as markdown. Do not wrap the reply in a code fence.";
  const routes = options.routes === undefined ? [] : [formatRoutes(options.routes)];
  const branches = listStatusBranches(roleSchema);
  if (branches.length > 1)
    return [`${heading} Output format`, intro, ...describeBranches(branches, subheading, routes)].join("\n\n");
  const isConvention = (_name: string, field: JsonSchemaObject) => field[CONVENTION_KEYWORD] === true;
  const fields = describeSchemaFields(roleSchema, isConvention);
  const status = describeStatus(roleSchema);

  const parts = [
    `${heading} Output format`,
    intro,
    `${subheading} Fields`,
    fields.length === 0
      ? "This role reports no fields: the frontmatter may be empty (a `---` line right after the first)."
      : fields.map(formatField).join("\n"),
    `${subheading} Status`,
    status.text,
    ...routes,
    `${subheading} Example`,
    fenceText(buildExampleReply(roleSchema, status.exampleValue), "markdown"),
  ];
  return parts.join("\n\n");
}

/**
 * A schema with per-status branches: which statuses there are, then each status with every field
 * its reply carries and an example reply of its own, so the agent never has to merge branches.
 */
function describeBranches(branches: StatusBranch[], subheading: string, routes: string[]): string[] {
  const statuses = [...new Set(branches.flatMap((branch) => branch.statuses ?? []))].filter(
    (value) => value !== SUSPEND_STATUS,
  );
  const listed = statuses.map((value) => `\`${value}\``).join(", ");
  const required = branches.every((branch) => branch.statuses !== null);
  const statusText = required
    ? `\`${STATUS_FIELD}\` (string, **required**, one of ${listed}) decides where the workflow goes next, and which fields you report with it.`
    : `\`${STATUS_FIELD}\` (string) decides which fields you report: ${listed} each have their own, and any other status the last list below.`;
  const suspend =
    `To pause the thread and ask a human instead, reply \`${STATUS_FIELD}: ${SUSPEND_STATUS}\` with a \`${REASON_FIELD}:\` ` +
    "saying why you stop and what you need; the required fields may then be left out.";
  const parts = [`${subheading} Status`, `${statusText} ${suspend}`, ...routes];
  for (const branch of branches) {
    const own = branch.statuses?.filter((value) => value !== SUSPEND_STATUS) ?? [];
    if (branch.statuses !== null && own.length === 0) continue;
    const fieldSchema = {
      type: "object",
      properties: Object.fromEntries(
        Object.entries(branch.properties).filter(
          ([name, field]) => name !== STATUS_FIELD && field[CONVENTION_KEYWORD] !== true,
        ),
      ),
      required: branch.required.filter((name) => name !== STATUS_FIELD),
    };
    const fields = describeSchemaFields(fieldSchema);
    // One example per status, so none of them is the one the agent copies by default.
    const examples = (own.length === 0 ? [null] : own).map((value) =>
      fenceText(buildExampleReply(fieldSchema, value), "markdown"),
    );
    parts.push(
      `${subheading} ${branchHeading(branch, own)}`,
      fields.length === 0 ? "No other fields." : fields.map(formatField).join("\n"),
      ...examples,
    );
  }
  return parts;
}

function branchHeading(branch: StatusBranch, own: string[]): string {
  const names = (values: string[]) => values.map((value) => `\`${value}\``).join(" or ");
  if (branch.statuses !== null) return `With \`${STATUS_FIELD}\`: ${names(own)}`;
  if (branch.excluded.length > 0) return `With any other \`${STATUS_FIELD}\` (not ${names(branch.excluded)})`;
  return `With any \`${STATUS_FIELD}\``;
}

export function formatField(field: SchemaFieldDescription): string {
  const details = [field.type, field.required ? "**required**" : "optional"];
  if (field.allowedValues !== null) {
    details.push(
      field.allowedValues.length === 1
        ? `always ${field.allowedValues[0]}`
        : `one of ${field.allowedValues.join(", ")}`,
    );
  }
  details.push(...field.constraints);
  const description = field.description === null ? "" : ` — ${field.description}`;
  return `${"  ".repeat(field.depth)}- \`${field.path}\` (${details.join(", ")})${description}`;
}

interface StatusDescription {
  text: string;
  /** The `$status` line for the example, when the role must give one. */
  exampleValue: string | null;
}

function describeStatus(schema: JsonSchemaObject): StatusDescription {
  const properties = asObject(schema.properties) ?? {};
  const status = asObject(properties[STATUS_FIELD]);
  const required = Array.isArray(schema.required) && schema.required.includes(STATUS_FIELD);
  const suspend =
    `To pause the thread and ask a human instead, reply \`${STATUS_FIELD}: ${SUSPEND_STATUS}\` with a \`${REASON_FIELD}:\` ` +
    "saying why you stop and what you need; the required fields may then be left out.";
  if (status === null || status[CONVENTION_KEYWORD] !== true) {
    const declared = status === null ? "" : "`$status` is one of your fields (above). ";
    const optional =
      status === null
        ? `\`${STATUS_FIELD}\` (string, optional) is a short word saying how things stand; the workflow may route on it. `
        : "";
    return { text: `${declared}${optional}${suspend}`, exampleValue: null };
  }
  const values = (Array.isArray(status.enum) ? status.enum : Array.isArray(status.examples) ? status.examples : [])
    .map(String)
    .filter((value) => value !== SUSPEND_STATUS);
  const listed = values.map((value) => `\`${value}\``).join(", ");
  if (required && values.length > 0) {
    return {
      text: `\`${STATUS_FIELD}\` (string, **required**, one of ${listed}) decides where the workflow goes next. ${suspend}`,
      // Every choice named, so the example nudges toward none of them.
      exampleValue: values.length === 1 ? (values[0] ?? null) : `<${values.join(" | ")}>`,
    };
  }
  const known = values.length > 0 ? ` The workflow routes on ${listed}.` : "";
  return {
    text: `\`${STATUS_FIELD}\` (string, optional) is a short word saying how things stand.${known} ${suspend}`,
    exampleValue: null,
  };
}

function buildExampleReply(schema: JsonSchemaObject, statusValue: string | null): string {
  const statusLine = statusValue === null ? [] : [`${STATUS_FIELD}: ${statusValue}`];
  const fieldLines = buildExampleFrontmatter(schema, (name) => {
    const field = asObject(asObject(schema.properties)?.[name]);
    return field?.[CONVENTION_KEYWORD] !== true;
  });
  const yaml = [...statusLine, ...(fieldLines === "" ? [] : [fieldLines])].join("\n");
  return ["---", ...(yaml === "" ? [] : [yaml]), "---", "", "<your answer in markdown>"].join("\n");
}
