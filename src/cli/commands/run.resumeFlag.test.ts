import { describe, expect, it } from "vitest";
import { keelWorld, runKeel } from "../testing/keelProcess.ts";

describe("keel -p -r <word> with no task", () => {
  it.each([[["-p", "-r", "third"]], [["-p", "--resume", "third"]], [["run", "-r", "third"]]])(
    "%j says that the word was taken as the session id",
    async (args) => {
      const w = keelWorld();
      const result = await runKeel(
        [...args, "--provider", "anthropic", "--base-url", "http://127.0.0.1:9"],
        w,
        "",
      );
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        /The task is empty \("third" was taken as the session id of -r\/--resume, whose id is optional: put the task before the flag, keel -p "third" -r, or give both, keel -p -r <session-id> "task"\)\./,
      );
    },
  );

  it("-r alone with no task says only that the task is empty", async () => {
    const w = keelWorld();
    const result = await runKeel(["-p", "-r", "--provider", "anthropic"], w, "");
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/The task is empty\. Give one/);
    expect(result.stderr).not.toMatch(/session id/);
  });
});
