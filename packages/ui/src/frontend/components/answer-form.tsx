import type { SuspensionView } from "@uwf/protocol";

/** How one field of an answer schema is asked for: the input that fits its type. */
export interface AnswerField {
  name: string;
  kind: "boolean" | "select" | "text" | "textarea" | "number" | "json";
  required: boolean;
  description: string | null;
  /** A `select`'s choices (the schema's `enum`). */
  options: unknown[];
}

/** What the user has typed or picked, by field: a checkbox's boolean, anything else as text. */
export type AnswerValues = Record<string, string | boolean>;

/** Strings longer than this get a one-line input; others (no `maxLength`, or a long one) a textarea. */
const SHORT_TEXT = 120;

/**
 * The inputs an answer schema asks for, one per top-level property: boolean → checkbox, `enum` →
 * select, string → text (a textarea unless `maxLength` keeps it short), number or integer → number,
 * anything else → a JSON textarea. Null when the schema names no properties: the whole answer is JSON.
 */
export function answerFieldsOf(schema: Record<string, unknown>): AnswerField[] | null {
  const properties = asObject(schema.properties);
  if (properties === null || Object.keys(properties).length === 0) return null;
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  return Object.entries(properties).map(([name, value]) => {
    const field = asObject(value) ?? {};
    const type = Array.isArray(field.type) ? null : field.type;
    const maxLength = typeof field.maxLength === "number" ? field.maxLength : null;
    const kind: AnswerField["kind"] = Array.isArray(field.enum)
      ? "select"
      : type === "boolean"
        ? "boolean"
        : type === "string"
          ? maxLength !== null && maxLength <= SHORT_TEXT
            ? "text"
            : "textarea"
          : type === "number" || type === "integer"
            ? "number"
            : "json";
    return {
      name,
      kind,
      required: required.has(name),
      description: typeof field.description === "string" ? field.description : null,
      options: Array.isArray(field.enum) ? field.enum : [],
    };
  });
}

/**
 * The answer the inputs hold, as the fields `uwf resume --answer` takes; or the problem with one that is
 * not a value yet (a number or JSON that does not parse). An empty optional input is left out; a checkbox
 * is always given. Whether the answer fits the schema is the server's to say, exactly as the CLI does.
 */
export function buildAnswer(
  fields: AnswerField[] | null,
  values: AnswerValues,
): { answer: Record<string, unknown> } | { problem: string } {
  if (fields === null) {
    const text = String(values[""] ?? "").trim();
    const parsed = parseJson(text === "" ? "{}" : text);
    if (parsed === undefined || parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
      return { problem: "the answer must be a JSON object of fields" };
    return { answer: parsed as Record<string, unknown> };
  }
  const answer: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (field.kind === "boolean") {
      answer[field.name] = value === true;
      continue;
    }
    const text = typeof value === "string" ? value : "";
    if (text.trim() === "" && field.kind !== "text" && field.kind !== "textarea") continue;
    if (text === "" && !field.required) continue;
    if (field.kind === "select") answer[field.name] = field.options[Number(text)];
    else if (field.kind === "number") {
      const number = Number(text);
      if (!Number.isFinite(number)) return { problem: `${field.name}: expected a number, got "${text}"` };
      answer[field.name] = number;
    } else if (field.kind === "json") {
      const parsed = parseJson(text);
      if (parsed === undefined) return { problem: `${field.name}: expected JSON` };
      answer[field.name] = parsed;
    } else answer[field.name] = text;
  }
  return { answer };
}

/** The suspension's question (the fields the role sent) and the inputs of its answer schema. */
export function TypedAnswerInputs(props: {
  suspension: SuspensionView;
  fields: AnswerField[] | null;
  values: AnswerValues;
  onChange(values: AnswerValues): void;
  disabled: boolean;
}) {
  const { suspension, fields, values, disabled } = props;
  const set = (name: string, value: string | boolean) => props.onChange({ ...values, [name]: value });
  const asked = Object.entries(suspension.ask);
  return (
    <div class="answer-form" data-testid="answer-form">
      {asked.length === 0 ? null : (
        <dl class="asked" data-testid="resume-asked">
          {asked.map(([name, value]) => (
            <div key={name}>
              <dt>{name}</dt>
              <dd>{typeof value === "string" ? value : JSON.stringify(value)}</dd>
            </div>
          ))}
        </dl>
      )}
      {fields === null ? (
        <textarea
          data-testid="answer-json"
          rows={4}
          spellcheck={false}
          placeholder='The answer, as a JSON object: {"field": "value"}'
          value={String(values[""] ?? "")}
          disabled={disabled}
          onInput={(event) => set("", (event.currentTarget as HTMLTextAreaElement).value)}
        />
      ) : (
        fields.map((field) => (
          <AnswerFieldInput
            key={field.name}
            field={field}
            value={values[field.name]}
            disabled={disabled}
            onInput={(value) => set(field.name, value)}
          />
        ))
      )}
    </div>
  );
}

export function AnswerFieldInput(props: {
  field: AnswerField;
  value: string | boolean | undefined;
  disabled: boolean;
  onInput(value: string | boolean): void;
}) {
  const { field, value, disabled } = props;
  const id = `answer-${field.name}`;
  const text = typeof value === "string" ? value : "";
  const label = (
    <span class="answer-label">
      <code>{field.name}</code>
      {field.required ? <span class="muted"> (required)</span> : null}
      {field.description === null ? null : <span class="muted"> — {field.description}</span>}
    </span>
  );
  const testid = `answer-field-${field.name}`;
  if (field.kind === "boolean") {
    return (
      <label class="check answer-field" for={id}>
        <input
          id={id}
          type="checkbox"
          data-testid={testid}
          checked={value === true}
          disabled={disabled}
          onChange={(event) => props.onInput((event.currentTarget as HTMLInputElement).checked)}
        />{" "}
        {label}
      </label>
    );
  }
  const onInput = (event: Event) => props.onInput((event.currentTarget as HTMLInputElement).value);
  return (
    <label class="answer-field" for={id}>
      {label}
      {field.kind === "select" ? (
        <select id={id} data-testid={testid} value={text} disabled={disabled} onChange={onInput}>
          <option value="">—</option>
          {field.options.map((option, index) => (
            <option key={JSON.stringify(option)} value={String(index)}>
              {typeof option === "string" ? option : JSON.stringify(option)}
            </option>
          ))}
        </select>
      ) : field.kind === "textarea" || field.kind === "json" ? (
        <textarea
          id={id}
          data-testid={testid}
          rows={field.kind === "json" ? 3 : 2}
          spellcheck={field.kind !== "json"}
          placeholder={field.kind === "json" ? "JSON" : ""}
          value={text}
          disabled={disabled}
          onInput={onInput}
        />
      ) : field.kind === "number" ? (
        <input id={id} data-testid={testid} type="number" value={text} disabled={disabled} onInput={onInput} />
      ) : (
        <input id={id} data-testid={testid} type="text" value={text} disabled={disabled} onInput={onInput} />
      )}
    </label>
  );
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function asObject(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}
