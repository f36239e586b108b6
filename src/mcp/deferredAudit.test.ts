import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import type { AuditRecord } from "../pipeline/services.ts";
import { deferredAuditSink } from "./deferredAudit.ts";

function record(toolUseId: string): AuditRecord {
  return {
    time: "2026-03-01T10:00:00.000Z",
    sessionId: "s",
    toolUseId,
    tool: "Echo",
    inputSummary: "{}",
    behavior: "allow",
    decidedBy: "test",
    hooks: [],
    durationMs: { total: 0, permission: 0, call: 0 },
    resultChars: 0,
    isError: false,
  };
}

describe("deferredAuditSink", () => {
  it("hands records on after this turn's work, in order, and survives a failing sink", async () => {
    const written: string[] = [];
    let failOnce = true;
    const sink = deferredAuditSink({
      record: (entry) => {
        if (failOnce) {
          failOnce = false;
          throw new Error("disk full");
        }
        written.push(entry.toolUseId);
      },
    });
    for (const id of ["lost", "a", "b"]) sink.record(record(id));
    await Promise.resolve();
    expect(written).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(written).toEqual(["a", "b"]);
    sink.record(record("c"));
    sink.flush();
    expect(written).toEqual(["a", "b", "c"]);
  });

  it("writes what is pending when the process exits at once", () => {
    const script = `
      const { deferredAuditSink } = await import(${JSON.stringify(new URL("./deferredAudit.ts", import.meta.url).href)});
      const sink = deferredAuditSink({ record: (entry) => process.stdout.write(entry.toolUseId + "\\n") });
      sink.record({ toolUseId: "one" });
      sink.record({ toolUseId: "two" });
      process.exit(0);
    `;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("one\ntwo\n");
  });
});
