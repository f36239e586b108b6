// Writing JSON files Keel changes for a person (an agent's hook settings, local rules, the trust store):
// whole or not at all, with the file's permission bits kept and a symlinked file (dotfiles) kept a link.
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { atomicWriteJson, readJsonObject } from "./atomicJson.ts";

let base: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "keel-atomic-json-")));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe("atomicWriteJson", () => {
  it("creates a missing file and its folder with the mode asked for", () => {
    const path = join(base, "home", ".claude", "settings.json");
    atomicWriteJson(path, { a: 1 }, 0o644);
    expect(readJsonObject(path)).toEqual({ a: 1 });
    expect(statSync(path).mode & 0o777).toBe(0o644);
    expect(readdirSync(join(base, "home", ".claude"))).toEqual(["settings.json"]);
  });

  it("keeps an existing file's permission bits (a private settings file stays private)", () => {
    const path = join(base, "settings.json");
    writeFileSync(path, "{}", { mode: 0o600 });
    atomicWriteJson(path, { env: { TOKEN: "x" } }, 0o644);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("writes through a symlink to its target and leaves the link in place", () => {
    const dotfiles = join(base, "dotfiles");
    const home = join(base, "home", ".gemini");
    mkdirSync(dotfiles, { recursive: true });
    mkdirSync(home, { recursive: true });
    const target = join(dotfiles, "gemini.json");
    writeFileSync(target, '{"theme": "dark"}\n', { mode: 0o640 });
    const link = join(home, "settings.json");
    symlinkSync(target, link);

    atomicWriteJson(link, { theme: "dark", hooks: {} }, 0o644);

    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(target);
    expect(JSON.parse(readFileSync(target, "utf8"))).toEqual({ theme: "dark", hooks: {} });
    expect(statSync(target).mode & 0o777).toBe(0o640);
    // No temp file left beside the link or the target.
    expect(readdirSync(home)).toEqual(["settings.json"]);
    expect(readdirSync(dotfiles)).toEqual(["gemini.json"]);
  });
});
