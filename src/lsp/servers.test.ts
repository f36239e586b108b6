// Which server serves a file, and lspServers as settings files give them (Claude Code's .lsp.json shape).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadSettings } from "../settings/load.ts";
import { SettingsError } from "../settings/readSettingsFile.ts";
import { createTestWorld, type TestWorld } from "../settings/testWorld.ts";
import { trustFolder } from "../settings/trust.ts";
import { ToolError } from "../tool/errors.ts";
import { LSP_ERROR } from "./launch.ts";
import { definitionFor, languageIdOf, lspOptionsFromSettings } from "./servers.ts";

let world: TestWorld;
beforeEach(() => {
  world = createTestWorld();
});
afterEach(() => world.cleanup());

const load = () => loadSettings({ cwd: world.project, env: world.env });
const gopls = { command: "gopls", args: ["serve"], extensionToLanguage: { ".go": "go" } };

describe("definitionFor", () => {
  it.each([
    ["a.ts", "typescript", "typescript"],
    ["a.tsx", "typescript", "typescriptreact"],
    ["a.mjs", "typescript", "javascript"],
    ["a.JSX", "typescript", "javascriptreact"],
    ["a.py", "python", "python"],
    ["a.pyi", "python", "python"],
  ])("%s is served by the built-in %s server as %s", (path, server, languageId) => {
    const definition = definitionFor(`/p/${path}`, {});
    expect(definition.name).toBe(server);
    expect(languageIdOf(definition, `/p/${path}`)).toBe(languageId);
  });

  it("a configured server comes first, even for an extension a built-in one serves", () => {
    const options = {
      servers: [
        {
          name: "deno",
          config: { command: "deno", args: ["lsp"], extensionToLanguage: { ts: "typescript" } },
        },
      ],
    };
    expect(definitionFor("/p/a.ts", options).name).toBe("deno");
    expect(definitionFor("/p/a.py", options).name).toBe("python");
  });

  it("an extension nobody serves is an lsp_not_configured error", () => {
    const error = definitionFor.bind(undefined, "/p/a.rs", {});
    expect(error).toThrow(ToolError);
    expect(error).toThrow(/rust-analyzer/);
    try {
      error();
    } catch (thrown) {
      expect((thrown as ToolError).code).toBe(LSP_ERROR.notConfigured);
    }
  });
});

describe("lspServers in settings", () => {
  it("the user's servers are read, in the plugin shape, with their file", () => {
    world.write("home/.claude/settings.json", { lspServers: { go: gopls } });
    const loaded = load();
    expect(loaded.lspServers).toEqual([
      { name: "go", config: gopls, file: `${world.home}/.claude/settings.json` },
    ]);
    expect(definitionFor("/p/main.go", lspOptionsFromSettings(loaded, { startOnFileUse: false })).name).toBe(
      "go",
    );
  });

  it("a project's servers run commands: held back until the folder is trusted", () => {
    world.write("project/.claude/settings.json", { lspServers: { go: gopls } });
    const untrusted = load();
    expect(untrusted.lspServers).toEqual([]);
    expect(untrusted.warnings.join("\n")).toContain("lspServers");
    expect(lspOptionsFromSettings(untrusted, { startOnFileUse: false }).useProjectTypeScript).toBe(false);
    trustFolder(world.project, world.env);
    const trusted = load();
    expect(trusted.lspServers.map((entry) => entry.name)).toEqual(["go"]);
    expect(lspOptionsFromSettings(trusted, { startOnFileUse: true })).toMatchObject({
      useProjectTypeScript: true,
      startOnFileUse: true,
    });
  });

  it("the same name in two files: the higher-precedence file wins", () => {
    trustFolder(world.project, world.env);
    world.write("home/.keel/settings.json", { lspServers: { go: { ...gopls, command: "user-gopls" } } });
    world.write("project/.keel/settings.local.json", {
      lspServers: { go: { ...gopls, command: "local-gopls" } },
    });
    expect(load().lspServers.map((entry) => entry.config.command)).toEqual(["local-gopls"]);
  });

  it("an entry without a command is a settings error naming the file", () => {
    world.write("home/.keel/settings.json", { lspServers: { go: { extensionToLanguage: { ".go": "go" } } } });
    expect(load).toThrow(SettingsError);
    expect(load).toThrow(/lspServers/);
  });
});
