// `keel tool` can edit: several calls in one session through --jsonl (Read, then Edit of what was read),
// and a lone Edit says how. Real `keel` processes on real files.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { jsonLines, keelWorld, runKeel } from "../testing/keelProcess.ts";

const line = (name: string, input: Record<string, unknown>, id?: string) =>
  JSON.stringify({ name, input, ...(id ? { id } : {}) });

describe("keel tool --jsonl", () => {
  it("Read then Edit in one session: the edit lands, one result line per call", async () => {
    const w = keelWorld();
    const file = join(w.project, "notes.txt");
    writeFileSync(file, "alpha\nbeta\n");
    const stdin = [
      line("Read", { file_path: file }, "r1"),
      "",
      line("Edit", { file_path: file, old_string: "beta", new_string: "gamma" }, "e1"),
    ].join("\n");
    const result = await runKeel(["tool", "--jsonl", "--allow", "Edit"], w, stdin);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const results = jsonLines(result.stdout);
    expect(results.map((r) => [r.id, r.name, r.is_error])).toEqual([
      ["r1", "Read", false],
      ["e1", "Edit", false],
    ]);
    expect(results[1]!.decision).toMatchObject({ behavior: "allow" });
    expect(readFileSync(file, "utf8")).toBe("alpha\ngamma\n");
  });

  it("a Bash cd carries to the next call; a refused call sets the exit code, the rest still run", async () => {
    const w = keelWorld();
    const stdin = [
      line("Bash", { command: "mkdir -p sub && cd sub" }),
      line("Bash", { command: "pwd" }),
      line("Write", { file_path: join(w.project, "x.txt"), content: "x" }),
      line("Bash", { command: "echo after" }),
    ].join("\n");
    const result = await runKeel(["tool", "--jsonl", "--allow", "Bash"], w, stdin);
    const results = jsonLines(result.stdout);
    expect(results).toHaveLength(4);
    expect(String(results[1]!.content)).toContain(join(w.project, "sub"));
    expect(results[2]).toMatchObject({ name: "Write", is_error: true, error_code: "permission_denied" });
    expect(String(results[3]!.content)).toContain("after");
    expect(result.code).toBe(3);
  });

  it("a line that is not a call is reported with its number and the run goes on (exit 2)", async () => {
    const w = keelWorld();
    const result = await runKeel(
      ["tool", "--jsonl"],
      w,
      `not json\n{"input": {}}\n${line("LS", { path: w.project })}\n`,
    );
    const results = jsonLines(result.stdout);
    expect(results[0]).toMatchObject({ line: 1, is_error: true, error_code: "invalid_json" });
    expect(results[1]).toMatchObject({ line: 2, is_error: true, error_code: "invalid_input" });
    expect(String(results[1]!.content)).toMatch(/names no tool: send one call per line, e\.g\./);
    expect(results[2]).toMatchObject({ name: "LS", is_error: false });
    expect(result.code).toBe(2);
  });

  it("--jsonl with a tool name is a usage error; no name and no --jsonl too", async () => {
    const w = keelWorld();
    const both = await runKeel(["tool", "Read", "--jsonl"], w);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--jsonl reads the calls from stdin/);
    const none = await runKeel(["tool"], w);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/Name a tool .* or pass --jsonl/);
  });
});

describe("keel tool: a lone Edit", () => {
  it("fails with the model's message and tells the person to use --jsonl", async () => {
    const w = keelWorld();
    const file = join(w.project, "notes.txt");
    writeFileSync(file, "alpha\n");
    const result = await runKeel(
      [
        "tool",
        "Edit",
        JSON.stringify({ file_path: file, old_string: "alpha", new_string: "beta" }),
        "--allow",
        "Edit",
      ],
      w,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/File has not been read yet/);
    expect(result.stderr).toMatch(/Run the Read and the change in one session with `keel tool --jsonl`/);
    expect(readFileSync(file, "utf8")).toBe("alpha\n");
  });
});
