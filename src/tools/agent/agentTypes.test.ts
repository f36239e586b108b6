import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { agentMemoryDir, agentMemorySection } from "./agentMemory.ts";
import {
  agentTypeRoots,
  builtinAgentTypes,
  loadAgentTypes,
  parseAgentTypeFile,
  toolList,
} from "./agentTypes.ts";

const base = mkdtempSync(join(tmpdir(), "keel-agent-types-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

function write(path: string, content: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, content);
}

const doc = (front: string, body = "Body.") => `---\n${front}\n---\n${body}\n`;

describe("agent type files", () => {
  it.each([
    ["Read, Grep", ["Read", "Grep"]],
    ["Read Grep", ["Read", "Grep"]],
    ["[Read, Grep]", ["Read", "Grep"]],
    ["\n  - Read\n  - Grep", ["Read", "Grep"]],
    ["Bash(git log:*), Read", ["Bash", "Read"]],
    ["*", "*"],
  ])("tools: %j", (value, expected) => {
    const parsed = parseAgentTypeFile("/x/a.md", doc(`description: d\ntools: ${value}`), "project");
    expect(parsed.type?.tools).toEqual(expected);
  });

  it("without tools, an agent gets all of its parent's", () => {
    expect(parseAgentTypeFile("/x/a.md", doc("description: d"), "user").type?.tools).toBe("*");
    expect(toolList(undefined)).toBeUndefined();
  });

  it.each([
    ["description: d", { name: "a", description: "d", prompt: "Body.", source: "project" }, undefined],
    [
      "name: reviewer\ndescription: Reviews\nmodel: haiku\nmemory: local\ndisallowedTools: Write",
      { name: "reviewer", model: "haiku", memory: "local", disallowedTools: ["Write"] },
      undefined,
    ],
    [
      "name: x\ndescription: d\npermissionMode: plan\nmaxTurns: 12",
      { permissionMode: "plan", maxTurns: 12 },
      undefined,
    ],
    ["name: x\ndescription: d\nmaxTurns: many", { name: "x" }, "maxTurns must be a positive whole number"],
    [
      "name: x\ndescription: d\npermissionMode: bypassPermissions",
      { name: "x" },
      'permissionMode "bypassPermissions" ignored',
    ],
    ["name: x\ndescription: d\nmemory: everywhere", { name: "x" }, "memory must be user, project or local"],
  ])("front matter %j", (front, expected, warning) => {
    const parsed = parseAgentTypeFile("/x/a.md", doc(front), "project");
    expect(parsed.type).toMatchObject(expected);
    if (warning) expect(parsed.warning).toContain(warning);
    else expect(parsed.warning).toBeUndefined();
    expect(parsed.type?.permissionMode === undefined || parsed.type.permissionMode === "plan").toBe(true);
  });

  it.each([
    ["name: x", "no description"],
    ["name: bad name!\ndescription: d", "must use letters"],
  ])("%j is ignored with a warning", (front, warning) => {
    const parsed = parseAgentTypeFile("/x/a.md", doc(front), "project");
    expect(parsed.type).toBeUndefined();
    expect(parsed.warning).toContain(warning);
  });

  it("loads project then user folders, .keel before .claude; files replace built-ins except fork", async () => {
    const project = join(base, "project");
    const home = join(base, "home");
    write(join(project, ".keel", "agents", "a.md"), doc("description: from project keel"));
    write(join(project, ".claude", "agents", "a.md"), doc("description: from project claude"));
    write(join(project, ".claude", "agents", "b.md"), doc("description: b from project claude"));
    write(join(home, ".keel", "agents", "b.md"), doc("description: b from user keel"));
    write(join(home, ".keel", "agents", "c.md"), doc("description: c from user keel"));
    write(join(home, ".claude", "agents", "d.md"), doc("description: d from user claude"));
    write(join(home, ".claude", "agents", "explore.md"), doc("name: Explore\ndescription: my own Explore"));
    write(join(home, ".claude", "agents", "fork.md"), doc("name: fork\ndescription: not allowed"));
    write(join(home, ".claude", "agents", "broken.md"), doc("name: broken"));
    write(join(home, ".claude", "agents", "notes.txt"), "not an agent");
    const { types, warnings } = await loadAgentTypes(agentTypeRoots(project, { KEEL_HOME: home }));
    expect(types.map((type) => [type.name, type.source, type.description.slice(0, 30)])).toEqual([
      ["a", "project", "from project keel"],
      ["b", "project", "b from project claude"],
      ["c", "user", "c from user keel"],
      ["d", "user", "d from user claude"],
      ["Explore", "user", "my own Explore"],
      ["general-purpose", "built-in", expect.any(String)],
      ["fork", "built-in", expect.any(String)],
    ]);
    expect(warnings.sort()).toEqual([
      expect.stringContaining("broken.md: no description"),
      expect.stringContaining('fork.md: "fork" is built in'),
    ]);
  });

  it("built-ins: general-purpose has every tool; Explore is read-only", () => {
    const [general, explore] = builtinAgentTypes();
    expect(general).toMatchObject({ name: "general-purpose", tools: "*" });
    expect(explore).toMatchObject({ name: "Explore", permissionMode: "plan" });
    expect(explore!.tools).not.toContain("Write");
  });
});

describe("agent memory", () => {
  it.each([
    ["user", join(base, "mh", ".keel", "agent-memory", "my-agent")],
    ["project", join(base, "mp", ".keel", "agent-memory", "my-agent")],
    ["local", join(base, "mp", ".keel", "agent-memory-local", "my-agent")],
  ] as const)("%s scope folder", (scope, expected) => {
    expect(agentMemoryDir("my:agent", scope, join(base, "mp"), { KEEL_HOME: join(base, "mh") })).toBe(
      expected,
    );
  });

  it("reads the .claude twin when only it exists, and puts MEMORY.md in the prompt", () => {
    const root = join(base, "twin");
    write(join(root, ".claude", "agent-memory", "rev", "MEMORY.md"), "- the build is slow on CI\n");
    expect(agentMemoryDir("rev", "project", root, {})).toBe(join(root, ".claude", "agent-memory", "rev"));
    const type = { ...builtinAgentTypes()[0]!, name: "rev", memory: "project" as const };
    const section = agentMemorySection(type, root, {});
    expect(section).toContain("the build is slow on CI");
    expect(agentMemorySection({ ...type, name: "none" }, root, {})).toContain("MEMORY.md does not exist yet");
    expect(agentMemorySection({ ...type, memory: undefined }, root, {}) ?? "none").toBe("none");
  });
});
