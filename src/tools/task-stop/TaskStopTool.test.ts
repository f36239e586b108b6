import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ToolError } from "../../tool/errors.ts";
import { isRunning } from "../../tool/testing/processes.ts";
import { BashTool } from "../bash/BashTool.ts";
import { APPROVED_BY_PERSON, callTool, shellSessionForEachTest } from "../bash/testing/context.ts";
import { TaskOutputTool } from "../task-output/TaskOutputTool.ts";
import { TaskStopTool } from "./TaskStopTool.ts";

const session = shellSessionForEachTest();

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
    expect(isRunning(child)).toBe(true);

    const stopped = await callTool(TaskStopTool, { task_id: id }, session.context);
    expect(stopped.text).toContain(`Task ${id} stopped`);
    expect(isRunning(child)).toBe(false);

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
