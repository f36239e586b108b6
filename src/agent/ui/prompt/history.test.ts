// The prompt history file: per project, newest first, kept across instances, private, cut back when long.
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempFolderForTest } from "../../../tool/testing/tempFolder.ts";
import { PromptHistory } from "./history.ts";

function file(): string {
  return join(tempFolderForTest("keel-history-"), ".keel", "history.jsonl");
}

describe("PromptHistory", () => {
  it("keeps prompts across instances, per project, newest first, without repeating the last", () => {
    const path = file();
    const a = new PromptHistory({ path, project: "/p/a" });
    a.add("first");
    a.add("second\nwith two lines");
    a.add("second\nwith two lines");
    new PromptHistory({ path, project: "/p/b" }).add("other project");
    a.add("third");
    expect(a.entries).toEqual(["third", "second\nwith two lines", "first"]);
    expect(new PromptHistory({ path, project: "/p/a" }).entries).toEqual([
      "third",
      "second\nwith two lines",
      "first",
    ]);
    expect(new PromptHistory({ path, project: "/p/b" }).entries).toEqual(["other project"]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("skips lines it cannot read and keeps at most maxEntries", () => {
    const path = file();
    const history = new PromptHistory({ path, project: "/p", maxEntries: 2 });
    history.add("one");
    writeFileSync(path, `${readFileSync(path, "utf8")}not json\n{"display":5}\n`, { flag: "w" });
    history.add("two");
    history.add("three");
    expect(new PromptHistory({ path, project: "/p", maxEntries: 2 }).entries).toEqual(["three", "two"]);
  });

  it("cuts the file back to its newest lines when it grows past the limit", () => {
    const path = file();
    const history = new PromptHistory({ path, project: "/p", maxFileLines: 10, keepLines: 4 });
    for (let i = 1; i <= 11; i++) history.add(`prompt ${i}`);
    const lines = readFileSync(path, "utf8").trim().split("\n");
    expect(lines.map((line) => JSON.parse(line).display)).toEqual([
      "prompt 8",
      "prompt 9",
      "prompt 10",
      "prompt 11",
    ]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("an unusable file costs the history file, not the session, and is told once", () => {
    // The folder the file should live in is a plain file: every read and write fails, even for root.
    const blocker = join(tempFolderForTest("keel-history-"), "not-a-folder");
    writeFileSync(blocker, "");
    const errors: string[] = [];
    const history = new PromptHistory({
      path: join(blocker, "history.jsonl"),
      project: "/p",
      onError: (message) => errors.push(message),
    });
    history.add("one");
    history.add("two");
    expect(history.entries).toEqual(["two", "one"]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^Prompt history: could not read .*not-a-folder\/history\.jsonl \(ENOTDIR/);
  });
});
