// Notices for people: each message its own sentence, so a retry notice never runs into the error text.
import { describe, expect, it } from "vitest";
import { asSentence, retryNotice } from "./format.ts";

describe("asSentence", () => {
  it.each([
    ["Rate limited by the API (429)", "Rate limited by the API (429)."],
    ["The server is overloaded.", "The server is overloaded."],
    ["Is it up?", "Is it up?"],
    ['It said "try later."', 'It said "try later."'],
    ["  trailing space  ", "trailing space."],
    ["", ""],
  ])("%j -> %j", (text, sentence) => {
    expect(asSentence(text)).toBe(sentence);
  });
});

describe("retryNotice", () => {
  it("puts the retry after the error's own sentence", () => {
    expect(retryNotice("Rate limited by the API (429)", 2_000, 1)).toBe(
      "Rate limited by the API (429). Retrying in 2.0 s (attempt 1).",
    );
    expect(retryNotice("The API is overloaded (529).", 500, 3)).toBe(
      "The API is overloaded (529). Retrying in 0.5 s (attempt 3).",
    );
  });
});
