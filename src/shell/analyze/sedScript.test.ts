import { describe, expect, it } from "vitest";
import { judgeSedScript } from "./sedScript.ts";

describe("judgeSedScript", () => {
  it.each([
    "1,80p",
    "s/a/b/g",
    "/start/,/end/p",
    "$!{h;d};x;G;p",
    "y/abc/xyz/",
    "s|a|b|2",
    "10q",
    "/x/d;s/a\\/b/c/",
    "1~2p",
    "$a text; w /tmp/x",
  ])("%j is safe", (script) => {
    expect(judgeSedScript(script).kind).toBe("safe");
  });

  it.each([
    ["1e id", "e"],
    ["s/a/b/e", "s///e"],
    ["s/a/b/w /tmp/x", "s///w"],
    ["s/a/b/gw out", "s///w"],
    ["w /tmp/x", "w"],
    ["1r /etc/passwd", "r"],
    ["p;e id", "e"],
    ["/x/ { e id\n}", "e"],
    ["$R /etc/shadow", "R"],
  ])("%j is dangerous (%s)", (script, command) => {
    const verdict = judgeSedScript(script);
    expect(verdict.kind).toBe("dangerous");
    expect(verdict.kind === "dangerous" && verdict.command).toBe(command);
  });

  it.each(["s/a/b", "/unterminated", "Z", "s"])("%j is not understood", (script) => {
    expect(judgeSedScript(script).kind).toBe("unknown");
  });
});
