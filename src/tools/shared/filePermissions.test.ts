// The path policy end to end: every file tool through the permission engine, by mode and by path.
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decidePermission } from "../../permissions/engine.ts";
import type { PermissionMode } from "../../permissions/types.ts";
import type { ToolUseContext } from "../../tool/context.ts";
import { createToolUseContext } from "../../tool/createContext.ts";
import type { Tool } from "../../tool/Tool.ts";
import { EditTool } from "../edit/EditTool.ts";
import { MultiEditTool } from "../multi-edit/MultiEditTool.ts";
import { NotebookEditTool } from "../notebook-edit/NotebookEditTool.ts";
import { ReadTool } from "../read/ReadTool.ts";
import { WriteTool } from "../write/WriteTool.ts";
import { createFileToolSession, type FileToolSession } from "./testSession.ts";

let s: FileToolSession;
let extraDir: string;
beforeAll(() => {
  s = createFileToolSession();
  extraDir = `${s.base}/extra`;
  for (const dir of [
    s.path("src"),
    s.path(".git"),
    `${s.base}/outside`,
    `${s.base}/project_evil`,
    extraDir,
  ]) {
    mkdirSync(dir, { recursive: true });
  }
  writeFileSync(`${s.base}/outside/secret.txt`, "s");
  symlinkSync(`${s.base}/outside`, s.path("escape"));
  // Files with a second name: one in a protected folder, one outside the project, one beside it.
  mkdirSync(s.path(".claude"), { recursive: true });
  writeFileSync(s.path(".claude", "settings.json"), "{}");
  linkSync(s.path(".claude", "settings.json"), s.path("src", "settings-link.json"));
  writeFileSync(`${s.base}/outside/linked.txt`, "a");
  linkSync(`${s.base}/outside/linked.txt`, s.path("src", "outside-link.txt"));
  writeFileSync(s.path("src", "twin.ipynb"), "{}");
  linkSync(s.path("src", "twin.ipynb"), s.path("src", "twin2.ipynb"));
  symlinkSync(s.path("src", "outside-link.txt"), s.path("src", "symlink-to-link.txt"));
});
afterAll(() => s.cleanup());

type ToolName = "Read" | "Edit" | "Write" | "MultiEdit" | "NotebookEdit";
const TOOLS: Record<ToolName, Tool> = {
  Read: ReadTool as Tool,
  Edit: EditTool as Tool,
  Write: WriteTool as Tool,
  MultiEdit: MultiEditTool as Tool,
  NotebookEdit: NotebookEditTool as Tool,
};

function inputFor(tool: ToolName, path: string): unknown {
  switch (tool) {
    case "Read":
      return { file_path: path };
    case "Edit":
      return { file_path: path, old_string: "a", new_string: "b" };
    case "Write":
      return { file_path: path, content: "x" };
    case "MultiEdit":
      return { file_path: path, edits: [{ old_string: "a", new_string: "b" }] };
    case "NotebookEdit":
      return { notebook_path: path, cell_id: "c", new_source: "x" };
  }
}

function session(
  mode: PermissionMode,
  rules: { allow?: string[]; deny?: string[]; ask?: string[] } = {},
): ToolUseContext {
  return createToolUseContext({
    tools: Object.values(TOOLS),
    cwd: s.root,
    additionalDirectories: [extraDir],
    mode,
    ...rules,
  });
}

/** "allow:tool" = behaviour and who decided (decisionReason.type). */
async function outcome(tool: ToolName, path: string, context: ToolUseContext): Promise<string> {
  const decision = await decidePermission(TOOLS[tool], inputFor(tool, path), context);
  return `${decision.behavior}:${decision.decisionReason.type}`;
}

const MODES: PermissionMode[] = ["default", "acceptEdits", "plan", "bypassPermissions", "dontAsk"];

// Expected outcome per mode, in the order of MODES.
const TABLE: Array<{ what: string; tool: ToolName; path: () => string; expect: string[] }> = [
  {
    what: "read inside",
    tool: "Read",
    path: () => s.path("src", "a.ts"),
    expect: ["allow:tool", "allow:tool", "allow:tool", "allow:mode", "allow:tool"],
  },
  {
    what: "read in an added directory",
    tool: "Read",
    path: () => `${extraDir}/x`,
    expect: ["allow:tool", "allow:tool", "allow:tool", "allow:mode", "allow:tool"],
  },
  {
    what: "read outside",
    tool: "Read",
    path: () => `${s.base}/outside/secret.txt`,
    expect: ["ask:tool", "ask:tool", "ask:tool", "allow:mode", "deny:mode"],
  },
  {
    what: "read through a symlink pointing outside",
    tool: "Read",
    path: () => s.path("escape", "secret.txt"),
    expect: ["ask:tool", "ask:tool", "ask:tool", "allow:mode", "deny:mode"],
  },
  {
    what: "read with a .. escape",
    tool: "Read",
    path: () => `${s.root}/src/../../outside/secret.txt`,
    expect: ["ask:tool", "ask:tool", "ask:tool", "allow:mode", "deny:mode"],
  },
  {
    what: "read in a sibling folder sharing the prefix",
    tool: "Read",
    path: () => `${s.base}/project_evil/x`,
    expect: ["ask:tool", "ask:tool", "ask:tool", "allow:mode", "deny:mode"],
  },
  {
    what: "edit inside",
    tool: "Edit",
    path: () => s.path("src", "a.ts"),
    expect: ["ask:default", "allow:mode", "deny:mode", "allow:mode", "deny:mode"],
  },
  {
    what: "write in an added directory",
    tool: "Write",
    path: () => `${extraDir}/new.txt`,
    expect: ["ask:default", "allow:mode", "deny:mode", "allow:mode", "deny:mode"],
  },
  {
    what: "multi-edit outside",
    tool: "MultiEdit",
    path: () => `${s.base}/outside/secret.txt`,
    expect: ["ask:tool", "ask:tool", "deny:mode", "allow:mode", "deny:mode"],
  },
  {
    what: "edit through a symlink pointing outside",
    tool: "Edit",
    path: () => s.path("escape", "secret.txt"),
    expect: ["ask:tool", "ask:tool", "deny:mode", "allow:mode", "deny:mode"],
  },
  {
    what: "write in a sibling folder sharing the prefix",
    tool: "Write",
    path: () => `${s.base}/project_evil/x`,
    expect: ["ask:tool", "ask:tool", "deny:mode", "allow:mode", "deny:mode"],
  },
  {
    what: "edit a protected path (.git)",
    tool: "Edit",
    path: () => s.path(".git", "config"),
    expect: ["ask:safetyCheck", "ask:safetyCheck", "deny:mode", "ask:safetyCheck", "deny:mode"],
  },
  {
    what: "notebook-edit inside a protected .vscode folder",
    tool: "NotebookEdit",
    path: () => s.path(".vscode", "nb.ipynb"),
    expect: ["ask:safetyCheck", "ask:safetyCheck", "deny:mode", "ask:safetyCheck", "deny:mode"],
  },
  {
    what: "write a shell rc file",
    tool: "Write",
    path: () => s.path(".bashrc"),
    expect: ["ask:safetyCheck", "ask:safetyCheck", "deny:mode", "ask:safetyCheck", "deny:mode"],
  },
  // A file with more than one name: its other names may be protected or outside; no path tells.
  {
    what: "write a hard link to .claude/settings.json",
    tool: "Write",
    path: () => s.path("src", "settings-link.json"),
    expect: ["ask:safetyCheck", "ask:safetyCheck", "deny:mode", "ask:safetyCheck", "deny:mode"],
  },
  {
    what: "edit a hard link to a file outside",
    tool: "Edit",
    path: () => s.path("src", "outside-link.txt"),
    expect: ["ask:safetyCheck", "ask:safetyCheck", "deny:mode", "ask:safetyCheck", "deny:mode"],
  },
  {
    what: "multi-edit a hard link through a symlink",
    tool: "MultiEdit",
    path: () => s.path("src", "symlink-to-link.txt"),
    expect: ["ask:safetyCheck", "ask:safetyCheck", "deny:mode", "ask:safetyCheck", "deny:mode"],
  },
  {
    what: "notebook-edit a notebook with two names",
    tool: "NotebookEdit",
    path: () => s.path("src", "twin.ipynb"),
    expect: ["ask:safetyCheck", "ask:safetyCheck", "deny:mode", "ask:safetyCheck", "deny:mode"],
  },
];

describe("file tool permissions by mode", () => {
  for (const row of TABLE) {
    for (const [i, mode] of MODES.entries()) {
      it(`${row.what} (${row.tool}) in ${mode} -> ${row.expect[i]}`, async () => {
        expect(await outcome(row.tool, row.path(), session(mode))).toBe(row.expect[i]);
      });
    }
  }
});

describe("rules through the path matchers", () => {
  it("a deny rule wins in every mode, bypass included", async () => {
    for (const mode of MODES) {
      const context = session(mode, { deny: ["Edit(*.lock)"] });
      expect(await outcome("Edit", s.path("yarn.lock"), context)).toBe("deny:rule");
      expect(await outcome("Write", s.path("yarn.lock"), context)).toBe("deny:rule");
      expect(await outcome("Read", s.path("yarn.lock"), context)).not.toBe("deny:rule");
    }
  });

  it("a Write rule covers Write only; an Edit rule covers every editing tool", async () => {
    const writeDenied = session("acceptEdits", { deny: ["Write(/gen/**)"] });
    expect(await outcome("Write", s.path("gen", "x"), writeDenied)).toBe("deny:rule");
    expect(await outcome("Edit", s.path("gen", "x"), writeDenied)).toBe("allow:mode");
    const editDenied = session("acceptEdits", { deny: ["Edit(/gen/**)"] });
    for (const tool of ["Edit", "Write", "MultiEdit", "NotebookEdit"] as const) {
      expect(await outcome(tool, s.path("gen", "x.ipynb"), editDenied)).toBe("deny:rule");
    }
  });

  it("a Read deny rule covers Read, not Edit", async () => {
    const context = session("default", { deny: ["Read(.env)"] });
    expect(await outcome("Read", s.path("sub", ".env"), context)).toBe("deny:rule");
    expect(await outcome("Edit", s.path("sub", ".env"), context)).toBe("ask:default");
  });

  it("an allow rule allows edits inside, and reads or edits outside", async () => {
    const context = session("default", {
      allow: ["Edit(/src/**)", `Read(/${s.base}/outside/**)`, `Edit(/${s.base}/outside/**)`],
    });
    expect(await outcome("Edit", s.path("src", "a.ts"), context)).toBe("allow:rule");
    expect(await outcome("Edit", s.path("lib", "a.ts"), context)).toBe("ask:default");
    expect(await outcome("Read", `${s.base}/outside/secret.txt`, context)).toBe("allow:rule");
    expect(await outcome("Edit", `${s.base}/outside/secret.txt`, context)).toBe("allow:rule");
  });

  it("an allow rule cannot be widened by a symlink", async () => {
    const context = session("default", { allow: ["Edit(/**)"] });
    expect(await outcome("Edit", s.path("escape", "secret.txt"), context)).toBe("ask:tool");
  });

  it("an ask rule asks even in bypass mode; a protected path cannot be allowed by a rule", async () => {
    expect(
      await outcome("Read", s.path("src", "a.ts"), session("bypassPermissions", { ask: ["Read(/src/**)"] })),
    ).toBe("ask:rule");
    expect(
      await outcome("Edit", s.path(".git", "config"), session("default", { allow: ["Edit(/.git/**)"] })),
    ).toBe("ask:safetyCheck");
  });

  it("asks carry suggestions: a folder rule relative to the project, or absolute outside it", async () => {
    const inside = await decidePermission(
      TOOLS.Edit,
      inputFor("Edit", s.path("src", "a.ts")),
      session("default"),
    );
    expect(inside.behavior === "ask" && inside.suggestions).toEqual([
      { behavior: "allow", rule: "Edit(/src/**)", destination: "session" },
    ]);
    const outside = await decidePermission(
      TOOLS.Read,
      inputFor("Read", `${s.base}/outside/secret.txt`),
      session("default"),
    );
    expect(outside.behavior === "ask" && outside.suggestions).toEqual([
      { behavior: "allow", rule: `Read(/${s.base}/outside/**)`, destination: "session" },
    ]);
  });

  it("a suggested rule, once added, allows the call", async () => {
    const path = `${s.base}/outside/secret.txt`;
    const asked = await decidePermission(TOOLS.Read, inputFor("Read", path), session("default"));
    const rule = asked.behavior === "ask" ? asked.suggestions?.[0]?.rule : undefined;
    expect(rule).toBeDefined();
    expect(await outcome("Read", path, session("default", { allow: [rule as string] }))).toBe("allow:rule");
  });
});
