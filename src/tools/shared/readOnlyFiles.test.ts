// Read-only files through real `keel` processes run as an unprivileged user (this machine's tests run as
// root, which may write any file): a file that user may not write is refused and left as it was, a
// writable one keeps its mode and owner after the atomic replace. Root follows `tee -a`: it may write a
// 0444 file, and the file keeps its mode.
import { chmodSync, chownSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type KeelWorld, keelWorld, startJsonlSession } from "../../cli/testing/keelProcess.ts";

/** The user the keel processes run as: this one when it is not root, else nobody (65534). */
const isRoot = process.getuid?.() === 0;
const USER = isRoot
  ? { uid: 65534, gid: 65534 }
  : { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
const asUser = isRoot ? USER : {};

/** A world the unprivileged user owns: project, home and the folder around them. */
function userWorld(): KeelWorld {
  const world = keelWorld();
  if (isRoot) for (const path of [world.root, world.project, world.home]) chownSync(path, USER.uid, USER.gid);
  return world;
}

function contentText(result: Record<string, unknown>): string {
  return typeof result.content === "string" ? result.content : JSON.stringify(result.content);
}

function userFile(path: string, text: string, mode: number): void {
  writeFileSync(path, text);
  if (isRoot) chownSync(path, USER.uid, USER.gid);
  chmodSync(path, mode);
}

const edit = (file: string) => ({ file_path: file, old_string: "before", new_string: "after" });

describe(`keel as an unprivileged user (uid ${USER.uid})`, () => {
  it("a 0444 file in a writable folder: Edit and Write are refused as read-only, the file unchanged", async () => {
    const world = userWorld();
    const file = join(world.project, "locked.txt");
    userFile(file, "before\n", 0o444);
    const session = startJsonlSession(world, ["--mode", "acceptEdits"], asUser);
    expect((await session.call("Read", { file_path: file })).is_error).toBe(false);
    const edited = await session.call("Edit", edit(file));
    const written = await session.call("Write", { file_path: file, content: "replaced\n" });
    await session.close();
    for (const result of [edited, written]) {
      expect(result).toMatchObject({ is_error: true, error_code: "read_only" });
      expect(contentText(result)).toMatch(/is read-only \(mode 0444\).*ask the user to make it writable/);
    }
    expect(readFileSync(file, "utf8")).toBe("before\n");
    expect(statSync(file).mode & 0o7777).toBe(0o444);
  });

  it.runIf(isRoot)("a file another user owns and this one may only read: refused, unchanged", async () => {
    const world = userWorld();
    const file = join(world.project, "roots.txt");
    writeFileSync(file, "before\n");
    chmodSync(file, 0o644);
    const session = startJsonlSession(world, ["--mode", "acceptEdits"], asUser);
    await session.call("Read", { file_path: file });
    const result = await session.call("Edit", edit(file));
    await session.close();
    expect(result).toMatchObject({ is_error: true, error_code: "read_only" });
    expect(readFileSync(file, "utf8")).toBe("before\n");
    expect(statSync(file).uid).toBe(0);
  });

  it("a writable file keeps its mode and owner after the edit", async () => {
    const world = userWorld();
    const file = join(world.project, "script.sh");
    userFile(file, "echo before\n", 0o750);
    const session = startJsonlSession(world, ["--mode", "acceptEdits"], asUser);
    await session.call("Read", { file_path: file });
    const result = await session.call("Edit", edit(file));
    await session.close();
    expect(result.is_error).toBe(false);
    expect(readFileSync(file, "utf8")).toBe("echo after\n");
    const stats = statSync(file);
    expect(stats.mode & 0o7777).toBe(0o750);
    expect([stats.uid, stats.gid]).toEqual([USER.uid, USER.gid]);
  });

  it("a writable file in a folder where that user may not create files: refused, saying so", async () => {
    const world = userWorld();
    const folder = join(world.project, "sealed");
    mkdirSync(folder);
    const file = join(folder, "inside.txt");
    userFile(file, "before\n", 0o644);
    if (isRoot) chownSync(folder, USER.uid, USER.gid);
    chmodSync(folder, 0o555);
    const session = startJsonlSession(world, ["--mode", "acceptEdits"], asUser);
    await session.call("Read", { file_path: file });
    const result = await session.call("Edit", edit(file));
    await session.close();
    chmodSync(folder, 0o755);
    expect(result).toMatchObject({ is_error: true, error_code: "read_only" });
    expect(contentText(result)).toMatch(/may not create files in its folder.*make the folder writable/);
    expect(readFileSync(file, "utf8")).toBe("before\n");
  });
});

describe.runIf(isRoot)("keel as root", () => {
  it("may write a 0444 file, as `tee -a` may; the file keeps its mode", async () => {
    const world = keelWorld();
    const file = join(world.project, "locked.txt");
    writeFileSync(file, "before\n");
    chmodSync(file, 0o444);
    const session = startJsonlSession(world, ["--mode", "acceptEdits"]);
    await session.call("Read", { file_path: file });
    const result = await session.call("Edit", edit(file));
    await session.close();
    expect(result.is_error).toBe(false);
    expect(readFileSync(file, "utf8")).toBe("after\n");
    expect(statSync(file).mode & 0o7777).toBe(0o444);
  });
});
