// PermissionRequest hooks through the real runner and the real pipeline: a script answers the approval.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runToolUse } from "../pipeline/runToolUse.ts";
import { createHookProject, type HookProject } from "./testing.ts";

let project: HookProject | undefined;
afterEach(() => project?.cleanup());

async function run(project: HookProject, script: string) {
  const path = join(project.dir, "approve.sh");
  writeFileSync(path, `#!/usr/bin/env bash\ncat > "${project.dir}/request.json"\n${script}\n`, {
    mode: 0o755,
  });
  const runner = project.runner({
    PermissionRequest: [{ matcher: "Echo", hooks: [{ type: "command", command: path }] }],
  });
  let result: { isError: boolean; content: unknown; decidedBy?: string } | undefined;
  for await (const event of runToolUse(
    { type: "tool_use", id: "t1", name: "Echo", input: { text: "hello" } },
    project.context,
    { hooks: runner },
  )) {
    if (event.type === "result")
      result = {
        isError: event.isError,
        content: event.block.content,
        ...(event.decision ? { decidedBy: event.decision.decidedBy } : {}),
      };
  }
  return result!;
}

describe("PermissionRequest hooks", () => {
  it("a script's allow answers the approval; it receives the tool and input", async () => {
    project = createHookProject();
    const result = await run(
      project,
      `echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}'`,
    );
    expect(result.isError).toBe(false);
    expect(result.decidedBy).toMatch(/hook/);
    const { readFileSync } = await import("node:fs");
    const request = JSON.parse(readFileSync(join(project.dir, "request.json"), "utf8"));
    expect(request).toMatchObject({
      hook_event_name: "PermissionRequest",
      tool_name: "Echo",
      tool_input: { text: "hello" },
    });
  });

  it("exit 2 denies with the script's stderr", async () => {
    project = createHookProject();
    const result = await run(project, `echo "no echoes here" >&2; exit 2`);
    expect(result.isError).toBe(true);
    expect(String(result.content)).toContain("no echoes here");
  });

  it("no decision leaves the ask to a person, refused here as nobody can answer", async () => {
    project = createHookProject();
    const result = await run(project, "exit 0");
    expect(result.isError).toBe(true);
    expect(String(result.content)).toMatch(/nobody can give it/);
  });
});
