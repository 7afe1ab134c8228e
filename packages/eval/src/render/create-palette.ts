/** The colours a terminal report uses; each returns its text unchanged when colour is off. */
export interface Palette {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
}

const PLAIN: Palette = {
  bold: (text) => text,
  dim: (text) => text,
  red: (text) => text,
  green: (text) => text,
  yellow: (text) => text,
};

const paint = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

/** SGR codes as picocolors writes them; the caller has decided whether to colour (a TTY, NO_COLOR). */
const COLORED: Palette = {
  bold: paint(1, 22),
  dim: paint(2, 22),
  red: paint(31, 39),
  green: paint(32, 39),
  yellow: paint(33, 39),
};

export function createPalette(color: boolean): Palette {
  return color ? COLORED : PLAIN;
}
