// MCP server configuration: ${VAR} expansion, entry checks, sources and precedence.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} references are the subject of these tests
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempFolderForTest } from "../tool/testing/tempFolder.ts";
import { collectMcpServers, McpConfigError, parseServerEntry } from "./config.ts";
import { expandEnvVars } from "./expandEnv.ts";
import { mcpToolName, parseMcpToolName } from "./names.ts";

const env = { HOME_DIR: "/home/ada", EMPTY: "", TOKEN: "s3cret" };

describe("expandEnvVars", () => {
  it.each([
    ["${HOME_DIR}/bin", "/home/ada/bin", []],
    ["${MISSING}", "${MISSING}", ["MISSING"]],
    ["${MISSING:-fallback}", "fallback", []],
    ["${EMPTY:-fallback}", "fallback", []],
    ["${EMPTY}", "", []],
    ["${HOME_DIR:-x}", "/home/ada", []],
    ["Bearer ${TOKEN}", "Bearer s3cret", []],
    ["$HOME_DIR and ${not-a-name}", "$HOME_DIR and ${not-a-name}", []],
    ["${A}${B:-b}", "${A}b", ["A"]],
    ["${URL:-http://localhost:3000/mcp}", "http://localhost:3000/mcp", []],
  ])("%s -> %s", (input, value, missing) => {
    expect(expandEnvVars(input, env)).toEqual({ value, missing });
  });
});

describe("parseServerEntry", () => {
  it.each([
    [
      { command: "npx", args: ["-y", "pkg"] },
      { type: "stdio", command: "npx", args: ["-y", "pkg"], env: {} },
    ],
    [
      { type: "stdio", command: "srv", env: { KEY: "${TOKEN}" } },
      { type: "stdio", env: { KEY: "s3cret" } },
    ],
    [{ url: "https://example.com/mcp" }, { type: "http", url: "https://example.com/mcp", headers: {} }],
    [
      { type: "http", url: "https://e.com/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
      { headers: { Authorization: "Bearer s3cret" } },
    ],
    [{ type: "streamable-http", url: "https://e.com/mcp" }, { type: "http" }],
    [{ type: "sse", url: "https://e.com/sse" }, { type: "sse" }],
    [
      { command: "srv", timeout: 5000, startupTimeout: 1000 },
      { toolTimeoutMs: 5000, startupTimeoutMs: 1000 },
    ],
  ])("accepts %j", (raw, expected) => {
    const spec = parseServerEntry("s", raw, "test", env);
    expect(spec.error).toBeUndefined();
    expect(spec.config).toMatchObject(expected);
  });

  it.each([
    [[], /must be an object/],
    [{}, /command/],
    [{ command: "" }, /command must not be empty/],
    [{ command: "x", args: "not-a-list" }, /args/],
    [{ url: "not a url" }, /not a valid URL/],
    [{ url: "ftp://e.com" }, /http or https/],
    [{ type: "http" }, /url/],
    [{ command: "${NOPE}" }, /NOPE not set/],
    [{ url: "https://${HOST}/${PATH_PART}" }, /variables HOST, PATH_PART not set/],
  ])("rejects %j", (raw, reason) => {
    const spec = parseServerEntry("s", raw, "test", env);
    expect(spec.config).toBeUndefined();
    expect(spec.error).toMatch(reason);
  });

  it("marks disabled entries", () => {
    expect(parseServerEntry("s", { command: "x", disabled: true }, "test", env).disabled).toBe(true);
  });
});

describe("collectMcpServers", () => {
  const dir = tempFolderForTest("keel-mcp-config-");
  const file = join(dir, "servers.json");
  writeFileSync(
    file,
    JSON.stringify({ mcpServers: { a: { command: "from-file" }, c: { url: "https://c.example/mcp" } } }),
  );
  const settings = {
    mcpServers: [
      { name: "a", config: { command: "from-settings" }, source: "user" as const },
      { name: "b", config: { command: "b" }, source: "project" as const, file: join(dir, ".mcp.json") },
      { name: "d", config: { command: "d" }, source: "project" as const, file: join(dir, ".mcp.json") },
    ],
    mcpSettings: { disabledMcpjsonServers: ["d"] },
  };

  it("puts --mcp-config first, then settings, first name wins", () => {
    const specs = collectMcpServers(settings, { cwd: dir, configArgs: [file], env });
    expect(
      specs.map((spec) => [
        spec.name,
        spec.config?.type === "stdio" ? spec.config.command : spec.config?.type,
      ]),
    ).toEqual([
      ["a", "from-file"],
      ["c", "http"],
      ["b", "b"],
      ["d", "d"],
    ]);
    expect(specs.find((spec) => spec.name === "d")!.disabled).toBe(true);
    expect(specs.find((spec) => spec.name === "b")!.origin).toMatch(/project \.mcp\.json/);
  });

  it("--strict-mcp-config uses only --mcp-config", () => {
    const specs = collectMcpServers(settings, { cwd: dir, configArgs: [file], strict: true, env });
    expect(specs.map((spec) => spec.name)).toEqual(["a", "c"]);
  });

  it("takes inline JSON", () => {
    const specs = collectMcpServers(
      { mcpServers: [] },
      { cwd: dir, configArgs: ['{"mcpServers":{"x":{"command":"y"}}}'], env },
    );
    expect(specs[0]).toMatchObject({ name: "x", origin: "--mcp-config (inline JSON)" });
  });

  it.each([
    ["missing.json", /file not found/],
    ['{"mcpServers": [1]}', /expected \{"mcpServers"/],
    ["{broken", /invalid JSON/],
  ])("refuses --mcp-config %s", (arg, reason) => {
    expect(() => collectMcpServers({ mcpServers: [] }, { cwd: dir, configArgs: [arg], env })).toThrow(
      McpConfigError,
    );
    expect(() => collectMcpServers({ mcpServers: [] }, { cwd: dir, configArgs: [arg], env })).toThrow(reason);
  });
});

describe("tool names", () => {
  it.each([
    ["github", "create_issue", "mcp__github__create_issue"],
    ["my server", "do.it", "mcp__my_server__do_it"],
    ["everything", "get-sum", "mcp__everything__get-sum"],
  ])("%s / %s -> %s", (server, tool, name) => {
    expect(mcpToolName(server, tool)).toBe(name);
    expect(parseMcpToolName(name)).toMatchObject({ tool: name.split("__")[2] });
  });

  it("keeps long names under 128 characters and distinct", () => {
    const a = mcpToolName("s", "x".repeat(200));
    const b = mcpToolName("s", `${"x".repeat(199)}y`);
    expect(a.length).toBeLessThanOrEqual(128);
    expect(a).not.toBe(b);
  });
});
