// Two real `keel tool --jsonl` processes changing their own parts of one file as fast as they can: every
// change reported done is in the final file, and every refusal is the stale-read one (read again, retry).
// Without the cross-process lock and the re-check before the rename, this loses about a third of the edits.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type JsonlSession, keelWorld, startJsonlSession } from "../../cli/testing/keelProcess.ts";

const PARTS_PER_WORKER = 6;
const ROUNDS = 60;
const WORKERS = ["a", "b"] as const;
/** Refusals in a row before a worker gives up (a livelock would be a defect of its own). */
const MAX_RETRIES = 50;

/** How one tool changes part `name` (a line, or a notebook cell) from `value` to `value + 1`. */
interface Mode {
  tool: "Edit" | "Write" | "MultiEdit" | "NotebookEdit";
  fileName: string;
  initial(names: readonly string[]): string;
  change(file: string, name: string, value: number): Record<string, unknown>;
  /** Every part's value in the final file. */
  values(text: string): Record<string, number>;
}

const lineText = (name: string, value: number) => `${name}: ${value}\n`;

function lineValues(text: string): Record<string, number> {
  const values: Record<string, number> = {};
  for (const line of text.split("\n").filter(Boolean)) {
    const [name, value] = line.split(": ");
    values[name as string] = Number(value);
  }
  return values;
}

const textFile = {
  fileName: "shared.txt",
  initial: (names: readonly string[]) => names.map((n) => lineText(n, 0)).join(""),
  values: lineValues,
};

function notebook(names: readonly string[]): string {
  const cells = names.map((name) => ({
    cell_type: "code",
    id: name,
    metadata: {},
    source: [`${name}: 0`],
    outputs: [],
    execution_count: null,
  }));
  return `${JSON.stringify({ cells, metadata: {}, nbformat: 4, nbformat_minor: 5 }, null, 1)}\n`;
}

const MODES: Mode[] = [
  {
    tool: "Edit",
    ...textFile,
    change: (file, name, value) => ({
      file_path: file,
      old_string: lineText(name, value),
      new_string: lineText(name, value + 1),
    }),
  },
  {
    tool: "MultiEdit",
    ...textFile,
    change: (file, name, value) => ({
      file_path: file,
      edits: [{ old_string: lineText(name, value), new_string: lineText(name, value + 1) }],
    }),
  },
  {
    tool: "Write",
    ...textFile,
    // The whole file from what is on disk now: the check against what Keel read decides whether it may land.
    change: (file, name, value) => ({
      file_path: file,
      content: readFileSync(file, "utf8").replace(lineText(name, value), lineText(name, value + 1)),
    }),
  },
  {
    tool: "NotebookEdit",
    fileName: "shared.ipynb",
    initial: notebook,
    change: (file, name, value) => ({
      notebook_path: file,
      cell_id: name,
      new_source: `${name}: ${value + 1}`,
    }),
    values: (text) => {
      const cells = (JSON.parse(text) as { cells: Array<{ id: string; source: string | string[] }> }).cells;
      return Object.fromEntries(
        cells.map((cell) => [cell.id, Number([cell.source].flat().join("").split(": ")[1])]),
      );
    },
  },
];

interface WorkerReport {
  done: number;
  stale: number;
  /** What the worker believes each of its parts holds: the count of its changes reported done. */
  values: Record<string, number>;
  unexpected: string[];
}

function contentText(result: Record<string, unknown>): string {
  return typeof result.content === "string" ? result.content : JSON.stringify(result.content);
}

function isStaleRefusal(result: Record<string, unknown>): boolean {
  const message = contentText(result);
  return (
    result.error_code === "changed_since_read" &&
    /stale/.test(message) &&
    /Read (it|the file) again/.test(message)
  );
}

async function work(session: JsonlSession, file: string, names: readonly string[], mode: Mode) {
  const report: WorkerReport = { done: 0, stale: 0, values: {}, unexpected: [] };
  for (const name of names) report.values[name] = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const name = names[round % names.length] as string;
    const value = report.values[name] as number;
    for (let attempt = 0; ; attempt++) {
      if (attempt > MAX_RETRIES) throw new Error(`${name}: no progress after ${MAX_RETRIES} refusals`);
      const read = await session.call("Read", { file_path: file });
      if (read.is_error) throw new Error(`Read failed: ${contentText(read)}`);
      const result = await session.call(mode.tool, mode.change(file, name, value));
      if (!result.is_error) {
        report.done++;
        report.values[name] = value + 1;
        break;
      }
      if (isStaleRefusal(result)) {
        report.stale++;
        continue;
      }
      report.unexpected.push(`${result.error_code}: ${contentText(result)}`);
      break;
    }
  }
  return report;
}

describe("two Keel processes changing one file", () => {
  it.each(MODES)(
    "$tool: no change reported done is lost, every refusal says the read is stale",
    async (mode) => {
      const world = keelWorld();
      const file = join(world.project, mode.fileName);
      const names = WORKERS.map((prefix) =>
        Array.from({ length: PARTS_PER_WORKER }, (_, i) => `${prefix}${i}`),
      );
      writeFileSync(file, mode.initial(names.flat()));
      const sessions = WORKERS.map(() => startJsonlSession(world, ["--mode", "acceptEdits"]));
      // Both processes are up before either starts, so their changes interleave.
      await Promise.all(sessions.map((session) => session.call("Read", { file_path: file })));
      const reports = await Promise.all(
        sessions.map((session, index) => work(session, file, names[index] as string[], mode)),
      );
      const exits = await Promise.all(sessions.map((session) => session.close()));
      for (const exit of exits) expect(exit.stderr).toBe("");
      for (const report of reports) expect(report.unexpected).toEqual([]);
      expect(reports.map((report) => report.done)).toEqual([ROUNDS, ROUNDS]);
      expect(mode.values(readFileSync(file, "utf8"))).toEqual({
        ...reports[0]!.values,
        ...reports[1]!.values,
      });
      // The two really ran side by side: some calls found the other's change in between.
      expect(reports[0]!.stale + reports[1]!.stale).toBeGreaterThan(0);
    },
    120_000,
  );
});
