import { describe, expect, it } from "vitest";
import { ToolError } from "../../tool/errors.ts";
import { BashTool } from "../bash/BashTool.ts";
import { callTool, shellSessionForEachTest } from "../bash/testing/context.ts";
import { TaskStopTool } from "../task-stop/TaskStopTool.ts";
import { MonitorTool } from "./MonitorTool.ts";

const session = shellSessionForEachTest();

async function background(command: string): Promise<string> {
  const started = await callTool(BashTool, { command, run_in_background: true }, session.context);
  return started.data.backgroundTaskId!;
}
const monitor = (input: Record<string, unknown>) => callTool(MonitorTool, input, session.context);

describe("Monitor", () => {
  it("waits until a line matches, returns it with its line number, and leaves the task running", async () => {
    const id = await background("echo starting; sleep 0.3; echo 'server ready on 3000'; sleep 30");
    const { data, text } = await monitor({ task_id: id, pattern: "ready on \\d+" });
    expect(data.stoppedBecause).toBe("matched");
    expect(data.matches).toEqual([{ line: 2, text: "server ready on 3000" }]);
    expect(data.status).toBe("running");
    expect(text).toContain("2: server ready on 3000");
    await callTool(TaskStopTool, { task_id: id }, session.context);
  });

  it("counts a line printed before the first wait, and a later wait looks only after it", async () => {
    const id = await background("echo ready; sleep 30");
    expect((await monitor({ task_id: id, pattern: "^ready$" })).data.stoppedBecause).toBe("matched");
    const again = await monitor({ task_id: id, pattern: "^ready$", timeout: 300 });
    expect(again.data.stoppedBecause).toBe("timeout");
    expect(again.text).toContain("still running");
    await callTool(TaskStopTool, { task_id: id }, session.context);
  });

  it("stops when the task exits without a match, with its exit code and last lines", async () => {
    const id = await background("echo one; echo two; exit 3");
    const { data, text } = await monitor({ task_id: id, pattern: "ready" });
    expect(data).toMatchObject({ stoppedBecause: "exited", status: "failed", exitCode: 3, matches: [] });
    expect(data.tail).toEqual(["one", "two"]);
    expect(text).toContain("exit code 3");
  });

  it("matches without ANSI colours, ignoring case when asked, and reads a last line without a newline", async () => {
    const id = await background("printf '\\033[32mREADY\\033[0m\\n'; printf 'tail-without-newline'");
    const { data } = await monitor({ task_id: id, pattern: "^ready$", case_insensitive: true });
    expect(data.matches).toEqual([{ line: 1, text: "READY" }]);
    const end = await monitor({ task_id: id, pattern: "newline$" });
    expect(end.data.matches).toEqual([{ line: 2, text: "tail-without-newline" }]);
  });

  it("stops waiting when the call is aborted", async () => {
    const id = await background("sleep 30");
    const waiting = monitor({ task_id: id, pattern: "never" });
    setTimeout(() => session.context.abortController.abort(), 100);
    expect((await waiting).data.stoppedBecause).toBe("aborted");
  });

  it("refuses a broken pattern and names an unknown task", async () => {
    const invalid = await MonitorTool.validateInput!({ task_id: "x", pattern: "(ready" }, session.context);
    expect(invalid).toMatchObject({ result: false, errorCode: "invalid_input" });
    const error = await monitor({ task_id: "bash_nope", pattern: "x" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).code).toBe("not_found");
  });

  it("is read-only, parallel-safe, and allowed without asking", async () => {
    expect(MonitorTool.isReadOnly({} as never)).toBe(true);
    expect(MonitorTool.isConcurrencySafe({} as never)).toBe(true);
    const decision = await MonitorTool.checkPermissions({ task_id: "x", pattern: "y" }, session.context);
    expect(decision.behavior).toBe("allow");
  });
});
