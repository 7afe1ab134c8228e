import { describe, expect, it } from "bun:test";
import { escapeControlCharacters, escapeControlCharactersIn } from "./escape-control-characters.ts";

describe("escapeControlCharacters", () => {
  it("shows ESC, BEL, a lone carriage return, DEL and the C1 controls as \\xHH", () => {
    expect(escapeControlCharacters("\x1b[2J\x1b]52;c;aGk=\x07 over\rwrite \x7f \u009b \x00")).toBe(
      "\\x1b[2J\\x1b]52;c;aGk=\\x07 over\\x0dwrite \\x7f \\x9b \\x00",
    );
  });

  it("keeps newlines, tabs, \\r\\n and every other character", () => {
    const text = "line\n\tindented\r\nwindows line · é 日本 🙂";
    expect(escapeControlCharacters(text)).toBe(text);
  });
});

describe("escapeControlCharactersIn", () => {
  it("escapes every string of JSON-like data, keys included, and keeps the rest", () => {
    const data = { body: "\x1b[31mred", steps: [{ n: 1, tail: "a\x07" }], "k\x1b": null, ok: true };
    expect(escapeControlCharactersIn(data) as Record<string, unknown>).toEqual({
      body: "\\x1b[31mred",
      steps: [{ n: 1, tail: "a\\x07" }],
      "k\\x1b": null,
      ok: true,
    });
    expect(data.body).toBe("\x1b[31mred");
  });
});
