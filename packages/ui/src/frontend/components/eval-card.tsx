import type { ComponentChildren } from "preact";

/** One figure of a report's head (samples, pass rate, cost…): the value large, its label under it. */
export function EvalCard(props: {
  label: ComponentChildren;
  value: ComponentChildren;
  title?: string;
  /** An extra class for the card (`explore-decisive`). */
  class?: string;
  /** An extra class for the value (`verdict-passed`, to colour it). */
  valueClass?: string;
}) {
  return (
    <div class={props.class === undefined ? "eval-card" : `eval-card ${props.class}`} title={props.title}>
      <div class={props.valueClass === undefined ? "value" : `value ${props.valueClass}`}>{props.value}</div>
      <div class="label">{props.label}</div>
    </div>
  );
}
