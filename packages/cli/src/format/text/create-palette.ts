import type { Colors } from "picocolors/types";

/** The colours uwf's output uses. */
export type Palette = Pick<Colors, "bold" | "dim" | "red" | "green" | "yellow" | "cyan">;

const identity = (text: string | number | null | undefined): string => String(text);

const PLAIN: Palette = {
  bold: identity,
  dim: identity,
  red: identity,
  green: identity,
  yellow: identity,
  cyan: identity,
};

/**
 * picocolors only when colour is on: loading it probes `process.stdout.isTTY`, which creates
 * Node's stdout stream, 2-3 ms of start-up that output to a pipe or a file (CI, scripts, the
 * benchmark) never needs. The caller has already decided whether to colour.
 */
export function createPalette(color: boolean): Palette {
  if (!color) return PLAIN;
  const { createColors } = require("picocolors") as typeof import("picocolors");
  return createColors(true);
}
