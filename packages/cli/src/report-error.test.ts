import { describe, expect, it } from "bun:test";
import { cutMessage, MAX_ERROR_MESSAGE_LENGTH } from "./report-error.ts";

describe("cutMessage", () => {
  it("leaves a message within the limit as it is", () => {
    const message = "m".repeat(MAX_ERROR_MESSAGE_LENGTH);
    expect(cutMessage(message)).toBe(message);
  });

  it("cuts a longer message to the limit and says how much was cut", () => {
    const cut = cutMessage("m".repeat(MAX_ERROR_MESSAGE_LENGTH + 500));
    expect(cut).toBe(`${"m".repeat(MAX_ERROR_MESSAGE_LENGTH)}… (500 more characters cut)`);
  });

  it("never splits a character made of two UTF-16 units", () => {
    const cut = cutMessage(`${"m".repeat(MAX_ERROR_MESSAGE_LENGTH - 1)}😀${"m".repeat(10)}`);
    expect(cut).toBe(`${"m".repeat(MAX_ERROR_MESSAGE_LENGTH - 1)}… (12 more characters cut)`);
  });
});
