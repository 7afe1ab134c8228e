/** Deterministic pseudo-random numbers (mulberry32), so a failing generated case can be replayed by seed. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/** Strings that stress escaping and key order: controls, quotes, non-ASCII, astral pairs, index-like keys. */
const PIECES = [
  "a",
  "B",
  "z",
  "_",
  "$",
  " ",
  "1",
  "10",
  "2",
  "0",
  "007",
  "__proto__",
  "constructor",
  "toJSON",
  "\u0000",
  "\u001f",
  "\b",
  "\t",
  "\n",
  "\f",
  "\r",
  '"',
  "\\",
  "/",
  "\u007f",
  "\u0080",
  "é",
  "ö",
  "\u20ac",
  "\u2028",
  "\ufb33",
  "\uffff",
  "\ud83d\ude00",
  "\ud800\udc00",
  "日本",
  "type",
  "thread-step/1",
];

export function randomString(random: () => number): string {
  const length = Math.floor(random() * 5);
  let text = "";
  for (let index = 0; index < length; index++) text += PIECES[Math.floor(random() * PIECES.length)];
  return text;
}

export function randomNumber(random: () => number): number {
  const choice = random();
  if (choice < 0.3) return Math.floor(random() * 2000) - 1000;
  if (choice < 0.5) return (random() - 0.5) * 10 ** Math.floor(random() * 40 - 20);
  if (choice < 0.6)
    return [0, -0, 5e-324, -5e-324, 1e21, 1e-7, Number.MAX_VALUE, 2 ** 53][Math.floor(random() * 8)] ?? 0;
  // Any finite double, from random bits.
  const view = new DataView(new ArrayBuffer(8));
  do {
    view.setUint32(0, Math.floor(random() * 2 ** 32));
    view.setUint32(4, Math.floor(random() * 2 ** 32));
  } while (!Number.isFinite(view.getFloat64(0)));
  return view.getFloat64(0);
}

/** A random JSON value up to `depth` levels deep; object keys are defined as own data properties, even `__proto__`. */
export function randomJsonValue(random: () => number, depth = 4): unknown {
  const choice = random();
  if (depth <= 0 || choice < 0.35) {
    const kind = Math.floor(random() * 5);
    if (kind === 0) return null;
    if (kind === 1) return random() < 0.5;
    if (kind === 2) return randomNumber(random);
    return randomString(random);
  }
  if (choice < 0.65) {
    return Array.from({ length: Math.floor(random() * 6) }, () => randomJsonValue(random, depth - 1));
  }
  const object: Record<string, unknown> = random() < 0.1 ? Object.create(null) : {};
  const size = Math.floor(random() * 8);
  for (let index = 0; index < size; index++) {
    Object.defineProperty(object, randomString(random), {
      value: randomJsonValue(random, depth - 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return object;
}
