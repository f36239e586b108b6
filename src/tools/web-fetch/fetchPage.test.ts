import { describe, expect, it } from "vitest";
import { isSameSiteRedirect, upgradeToHttps } from "./fetchPage.ts";

describe("upgradeToHttps", () => {
  it.each([
    ["http://example.com/a?b", "https://example.com/a?b"],
    ["https://example.com/", "https://example.com/"],
    ["http://127.0.0.1:8080/x", "http://127.0.0.1:8080/x"],
    ["http://localhost:3000/", "http://localhost:3000/"],
    ["http://[::1]/", "http://[::1]/"],
  ])("%s -> %s", (from, to) => expect(upgradeToHttps(new URL(from)).href).toBe(to));
});

describe("isSameSiteRedirect", () => {
  it.each([
    ["https://example.com/a", "https://example.com/b", true],
    ["https://example.com/a", "https://www.example.com/b", true],
    ["https://www.example.com/a", "https://example.com/b", true],
    ["http://example.com/a", "https://example.com/a", true],
    ["https://example.com/a", "http://example.com/a", false],
    ["https://example.com/a", "https://docs.example.com/a", false],
    ["https://example.com/a", "https://example.com.evil.io/a", false],
    ["http://127.0.0.1:5000/", "http://localhost:5000/", false],
    ["http://127.0.0.1:5000/", "http://127.0.0.1:6000/", false],
  ])("%s -> %s: %s", (from, to, same) => expect(isSameSiteRedirect(new URL(from), new URL(to))).toBe(same));
});
