import type { ComponentChildren } from "preact";

/** A labelled checkbox: the box, then its label text; `onChange` receives the new checked state. */
export function CheckBox(props: {
  testid: string;
  checked: boolean;
  onChange(checked: boolean): void;
  disabled?: boolean;
  /** The label's class: `check` (a box among a form's fields) unless another style is wanted. */
  class?: string;
  children: ComponentChildren;
}) {
  return (
    <label class={props.class ?? "check"}>
      <input
        type="checkbox"
        data-testid={props.testid}
        checked={props.checked}
        disabled={props.disabled}
        onChange={(event) => props.onChange((event.currentTarget as HTMLInputElement).checked)}
      />{" "}
      {props.children}
    </label>
  );
}
