// Previews of file changes before approval: computed in memory from the file on disk, nothing written.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import type { ToolUseContext } from "../../tool/context.ts";
import { createToolUseContext } from "../../tool/createContext.ts";
import type { ToolView } from "../../tool/Tool.ts";
import { tempFolderForTest } from "../../tool/testing/tempFolder.ts";
import { EditTool } from "../edit/EditTool.ts";
import { MultiEditTool } from "../multi-edit/MultiEditTool.ts";
import { WriteTool } from "../write/WriteTool.ts";

let dir: string;
let context: ToolUseContext;
beforeEach(() => {
  dir = tempFolderForTest("keel-preview-");
  context = createToolUseContext({ tools: [], cwd: dir });
});

function patchOf(view: ToolView | undefined): string {
  if (view?.kind !== "diff") throw new Error(`expected a diff, got ${JSON.stringify(view)}`);
  return view.patch;
}

describe("renderToolUsePreview", () => {
  it("Edit: the diff of the replacement in the file, the file untouched and not marked read", async () => {
    const file = join(dir, "a.txt");
    writeFileSync(file, "one\r\ntwo\r\nthree\r\n");
    const view = await EditTool.renderToolUsePreview?.(
      { file_path: file, old_string: "two", new_string: "TWO\nand more" },
      context,
    );
    expect(view).toMatchObject({ kind: "diff", summary: `Change ${file}: 2 lines added, 1 removed` });
    expect(patchOf(view)).toMatch(/-two\n\+TWO\n\+and more/);
    expect(readFileSync(file, "utf8")).toBe("one\r\ntwo\r\nthree\r\n");
    expect(context.readFileState.keys()).toEqual([]);
  });

  it("Edit: when old_string is not in the file, the replacement itself, said so", async () => {
    const file = join(dir, "a.txt");
    writeFileSync(file, "one\n");
    const view = await EditTool.renderToolUsePreview?.(
      { file_path: file, old_string: "missing", new_string: "new" },
      context,
    );
    expect(view).toMatchObject({ kind: "diff", summary: `Change ${file} (the replacement as given)` });
    expect(patchOf(view)).toContain("-missing\n+new");
  });

  it("Write: a new file's lines, an existing file's diff", async () => {
    const file = join(dir, "b.txt");
    const created = await WriteTool.renderToolUsePreview?.({ file_path: file, content: "x\ny\n" }, context);
    expect(created).toMatchObject({ summary: `Create ${file} (2 lines)` });
    expect(patchOf(created)).toContain("+x\n+y");
    writeFileSync(file, "x\ny\n");
    const changed = await WriteTool.renderToolUsePreview?.({ file_path: file, content: "x\nz\n" }, context);
    expect(patchOf(changed)).toContain("-y\n+z");
  });

  it("MultiEdit: the edits in order; a missing file shows no diff", async () => {
    const file = join(dir, "c.txt");
    writeFileSync(file, "alpha beta\n");
    const view = await MultiEditTool.renderToolUsePreview?.(
      {
        file_path: file,
        edits: [
          { old_string: "alpha", new_string: "gamma" },
          { old_string: "gamma beta", new_string: "delta" },
        ],
      },
      context,
    );
    expect(patchOf(view)).toContain("-alpha beta\n+delta");
    const missing = await MultiEditTool.renderToolUsePreview?.(
      { file_path: join(dir, "none.txt"), edits: [{ old_string: "a", new_string: "b" }] },
      context,
    );
    expect(missing).toBeUndefined();
  });
});
