import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { initBashParser } from "../../shell/analyze/grammar/parse.ts";
import { ToolError } from "../../tool/errors.ts";
import { BashTool } from "../bash/BashTool.ts";
import {
  APPROVED_BY_PERSON,
  callTool,
  createShellTestSession,
  type ShellTestSession,
} from "../bash/testing/context.ts";
import { TaskOutputTool } from "../task-output/TaskOutputTool.ts";
import { TaskStopTool } from "./TaskStopTool.ts";

let session: ShellTestSession;
beforeAll(async () => {
  await initBashParser();
});
beforeEach(async () => {
  session = await createShellTestSession();
});
afterEach(async () => {
  await session.cleanup();
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

describe("TaskStop", () => {
  it("ends the task and everything it started; its output stays readable", async () => {
    const pidFile = join(session.root, "child.pid");
    // Approved by a person, so unconfined: the pid it writes is this machine's, not a namespace's.
    const started = await callTool(
      BashTool,
      { command: `echo up; sleep 60 & echo $! > ${pidFile}; wait`, run_in_background: true },
      session.context,
      APPROVED_BY_PERSON,
    );
    const id = started.data.backgroundTaskId ?? "";
    let child = 0;
    for (let i = 0; i < 200 && !child; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      child = Number(readFileSync(pidFile, { encoding: "utf8", flag: "a+" }).trim());
    }
    expect(isAlive(child)).toBe(true);

    const stopped = await callTool(TaskStopTool, { task_id: id }, session.context);
    expect(stopped.text).toContain(`Task ${id} stopped`);
    expect(isAlive(child)).toBe(false);

    const output = await callTool(TaskOutputTool, { task_id: id }, session.context);
    expect(output.text).toBe(`up\nTask ${id} was stopped.`);
  });

  it("says so when the task had already ended", async () => {
    const started = await callTool(BashTool, { command: "true", run_in_background: true }, session.context);
    const id = started.data.backgroundTaskId ?? "";
    await callTool(TaskOutputTool, { task_id: id }, session.context);
    const stopped = await callTool(TaskStopTool, { task_id: id }, session.context);
    expect(stopped.text).toContain("had already ended (completed)");
  });

  it("rejects an unknown task id", async () => {
    const error = await callTool(TaskStopTool, { task_id: "bash_00000000" }, session.context).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).code).toBe("not_found");
  });
});
