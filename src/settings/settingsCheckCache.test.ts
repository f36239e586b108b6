// A kept settings check gives back exactly what checking the text again would, for that path and that
// text only; failed checks are never kept, and the checks that depend on the caller run on every read.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseSettingsText, SettingsError } from "./readSettingsFile.ts";
import {
  MAX_REMEMBERED_CHECKS,
  MAX_REMEMBERED_TEXT,
  recallCheck,
  rememberCheck,
} from "./settingsCheckCache.ts";

let folder: string;
beforeEach(() => {
  folder = join(mkdtempSync(join(tmpdir(), "keel-settings-checks-")), "checks");
});
afterEach(() => {
  rmSync(join(folder, ".."), { recursive: true, force: true });
});

const FILE = "/home/someone/.claude/settings.json";

const TEXTS = {
  rules: {
    permissions: { allow: ["Bash(npm test:*)", "Glob"], deny: ["Read(./.env)"], ask: ["Bash(git push:*)"] },
  },
  unknownKeys: { permisions: { allow: [] }, theme: "dark", sandbox: { enabled: true, colour: 1 } },
  hooks: {
    hooks: {
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo hi", timeout: 5 }] }],
    },
  },
  everything: {
    env: { A: "1" },
    lspServers: {
      py: { command: "pyright-langserver", args: ["--stdio"], extensionToLanguage: { ".py": "python" } },
    },
    audit: { maxSizeMB: 10 },
    agents: { remote: { queue: "redis://127.0.0.1:6379" } },
    model: "opus",
  },
};

describe("kept settings checks", () => {
  it.each(Object.entries(TEXTS))("give back what a fresh check gives: %s", (_name, value) => {
    const text = JSON.stringify(value, null, 2);
    const fresh = parseSettingsText(text, FILE, { rememberChecksIn: false });
    const first = parseSettingsText(text, FILE, { rememberChecksIn: folder });
    expect(readdirSync(folder)).toHaveLength(1);
    const second = parseSettingsText(text, FILE, { rememberChecksIn: folder });
    expect(first).toEqual(fresh);
    expect(second).toEqual(fresh);
  });

  it("are what a second read uses, for that path and that exact text only", () => {
    const text = JSON.stringify(TEXTS.rules);
    parseSettingsText(text, FILE, { rememberChecksIn: folder });
    const [name] = readdirSync(folder);
    const entry = join(folder, name ?? "");
    // Marked by hand: a read that shows the mark used the kept check instead of checking again.
    const kept = JSON.parse(readFileSync(entry, "utf8"));
    writeFileSync(entry, JSON.stringify({ ...kept, warnings: ["marked"] }));
    expect(parseSettingsText(text, FILE, { rememberChecksIn: folder }).warnings).toEqual(["marked"]);
    expect(parseSettingsText(`${text} `, FILE, { rememberChecksIn: folder }).warnings).toEqual([]);
    expect(parseSettingsText(text, `${FILE}.other`, { rememberChecksIn: folder }).warnings).toEqual([]);
    expect(recallCheck(folder, FILE, text.replace("Glob", "Grep"))).toBeUndefined();
  });

  it("are never kept for a text that fails, which fails again on every read", () => {
    const text = JSON.stringify({ permissions: { allow: "Bash" } });
    for (let i = 0; i < 2; i++)
      expect(() => parseSettingsText(text, FILE, { rememberChecksIn: folder })).toThrow(SettingsError);
    expect(() => readdirSync(folder)).toThrow();
  });

  it("still run the checks of rules on every read: warnings at their place, malformed rules fail", () => {
    const named = JSON.stringify({ permissions: { allow: ["Glob", "Raed"] } }, null, 2);
    const checkRuleToolName = (name: string) => (name === "Raed" ? 'no tool is named "Raed"' : undefined);
    for (let i = 0; i < 2; i++)
      expect(
        parseSettingsText(named, FILE, { rememberChecksIn: folder, checkRuleToolName }).warnings,
      ).toEqual([`${FILE}:5:7: rule "Raed": no tool is named "Raed"`]);
    const malformed = JSON.stringify({ permissions: { deny: ["Bash(rm -rf"] } });
    for (let i = 0; i < 2; i++)
      expect(() => parseSettingsText(malformed, FILE, { rememberChecksIn: folder })).toThrow(SettingsError);
    // Both shapes passed and were kept; the rules were checked on each read.
    expect(readdirSync(folder)).toHaveLength(2);
  });

  it("are read as absent when the kept file is damaged", () => {
    const text = JSON.stringify(TEXTS.rules);
    parseSettingsText(text, FILE, { rememberChecksIn: folder });
    const [name] = readdirSync(folder);
    writeFileSync(join(folder, name ?? ""), "{ not json");
    expect(recallCheck(folder, FILE, text)).toBeUndefined();
    expect(parseSettingsText(text, FILE, { rememberChecksIn: folder })).toEqual(
      parseSettingsText(text, FILE, { rememberChecksIn: false }),
    );
  });

  it(`keep the ${MAX_REMEMBERED_CHECKS} most recent texts`, () => {
    for (let i = 0; i < MAX_REMEMBERED_CHECKS + 10; i++)
      rememberCheck(folder, FILE, `{"model": "m${i}"}`, { settings: { model: `m${i}` }, warnings: [] });
    expect(readdirSync(folder)).toHaveLength(MAX_REMEMBERED_CHECKS);
  });

  it(`keep no text over ${MAX_REMEMBERED_TEXT} characters, which is checked on every read`, () => {
    const long = JSON.stringify({ env: { NOTE: "x".repeat(MAX_REMEMBERED_TEXT) } });
    expect(parseSettingsText(long, FILE, { rememberChecksIn: folder }).settings).toEqual(JSON.parse(long));
    expect(() => readdirSync(folder)).toThrow();
  });

  it("keep nothing that JSON would not give back unchanged", () => {
    rememberCheck(folder, FILE, "{}", { settings: { model: undefined }, warnings: [] });
    expect(recallCheck(folder, FILE, "{}")).toBeUndefined();
  });
});
