import type { Palette } from "../text/create-palette.ts";

/** How a thread's status is coloured in a table (`list`, `compare`): live green (cyan for a parent waiting for its branches), waiting for you yellow, done dim, broken red. */
export function threadStatusPaint(paint: Palette): Record<string, (text: string) => string> {
  return {
    active: paint.green,
    waiting: paint.cyan,
    suspended: paint.yellow,
    ended: paint.dim,
    cancelled: paint.dim,
    failed: paint.red,
    corrupt: paint.red,
  };
}
