// Where the confinement puts its mounts, for folders laid out on disk: one row per situation.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addRules, type ToolPermissionContext, updatePermissionContext } from "../../tool/context.ts";
import { buildPermissionContext } from "../../tool/createContext.ts";
import { type ConfinementProfile, confinementLayout } from "./confinementLayout.ts";

let base: string;
let home: string;
let count = 0;

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "keel-layout-")));
  home = join(base, "home");
  mkdirSync(join(home, ".config", "gh"), { recursive: true });
  mkdirSync(join(home, ".cargo", "registry"), { recursive: true });
  writeFileSync(join(home, ".cargo", "config.toml"), "");
  writeFileSync(join(home, ".bashrc"), "");
  mkdirSync(join(home, "dotfiles"));
  writeFileSync(join(home, "dotfiles", "zshrc"), "");
  symlinkSync(join(home, "dotfiles", "zshrc"), join(home, ".zshrc"));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

function project(entries: Record<string, "folder" | "file"> = {}): string {
  const root = join(base, `project-${++count}`);
  mkdirSync(root);
  for (const [path, kind] of Object.entries(entries)) {
    if (kind === "folder") mkdirSync(join(root, path), { recursive: true });
    else {
      mkdirSync(join(root, path, ".."), { recursive: true });
      writeFileSync(join(root, path), "");
    }
  }
  return root;
}

function layoutOf(
  root: string,
  options: { profile?: ConfinementProfile; cwd?: string; context?: ToolPermissionContext } = {},
) {
  const context = options.context ?? buildPermissionContext({ cwd: root, confinement: true });
  return confinementLayout(context, { cwd: options.cwd ?? root, home, profile: options.profile ?? "strict" });
}

describe("confinementLayout", () => {
  it("holds a repository read-only and stands in for every project name that is missing", () => {
    const root = project({ ".git/hooks": "folder", ".git/config": "file", ".vscode": "folder" });
    const layout = layoutOf(root);
    expect(layout.readOnly).toEqual(expect.arrayContaining([join(root, ".git"), join(root, ".vscode")]));
    for (const name of [
      ".claude",
      ".keel",
      ".idea",
      ".husky",
      ".cargo",
      ".mcp.json",
      ".npmrc",
      ".gitmodules",
    ])
      expect(layout.absent).toContain(join(root, name));
    expect(layout.absent).not.toContain(join(root, ".git"));
    // Home-only names are not stood in for in a project: nothing reads a project's .bashrc.
    expect(layout.absent).not.toContain(join(root, ".bashrc"));
    expect(layout.pins).toContain(root);
  });

  it("stands in for a missing .git, so a command cannot plant a repository", () => {
    const root = project();
    expect(layoutOf(root).absent).toContain(join(root, ".git"));
  });

  it("keeps git's own data writable for a git-only line: .git pinned, hooks and config read-only", () => {
    const root = project({ ".git/hooks": "folder", ".git/config": "file", ".git/objects": "folder" });
    const layout = layoutOf(root, { profile: "git" });
    expect(layout.pins).toContain(join(root, ".git"));
    expect(layout.readOnly).toEqual(
      expect.arrayContaining([join(root, ".git", "hooks"), join(root, ".git", "config")]),
    );
    expect(layout.readOnly).not.toContain(join(root, ".git"));
  });

  it("stands in for missing hooks of a git-only line's repository", () => {
    const root = project({ ".git/config": "file" });
    expect(layoutOf(root, { profile: "git" }).absent).toContain(join(root, ".git", "hooks"));
  });

  it("follows a worktree's .git file to the repository it uses", () => {
    const main = project({ ".git/hooks": "folder", ".git/config": "file", ".git/worktrees/wt": "folder" });
    writeFileSync(join(main, ".git", "worktrees", "wt", "commondir"), "../..\n");
    const worktree = project();
    writeFileSync(join(worktree, ".git"), `gitdir: ${join(main, ".git", "worktrees", "wt")}\n`);
    const strict = layoutOf(worktree);
    expect(strict.readOnly).toEqual(
      expect.arrayContaining([
        join(worktree, ".git"),
        join(main, ".git", "worktrees", "wt"),
        join(main, ".git"),
      ]),
    );
    const git = layoutOf(worktree, { profile: "git" });
    expect(git.readOnly).toEqual(
      expect.arrayContaining([join(worktree, ".git"), join(main, ".git", "hooks")]),
    );
    expect(git.pins).toContain(join(main, ".git"));
  });

  it("covers the home folder: protected files read-only, missing protected folders stood in for, never a missing file", () => {
    const layout = layoutOf(project());
    expect(layout.readOnly).toContain(join(home, ".bashrc"));
    // A symlinked rc file: where it leads is read-only.
    expect(layout.readOnly).toContain(join(home, "dotfiles", "zshrc"));
    for (const name of [".ssh", ".aws", ".git", ".config/git", ".config/autostart"])
      expect(layout.absent).toContain(join(home, name));
    // A stand-in .bash_profile would stop login shells from reading .profile while the command runs.
    for (const name of [".bash_profile", ".gitconfig", ".npmrc"])
      expect(layout.absent).not.toContain(join(home, name));
    // Folders holding protected entries stay writable, pinned, with only those entries read-only.
    expect(layout.pins).toEqual(expect.arrayContaining([join(home, ".config"), join(home, ".cargo")]));
    expect(layout.readOnly).toContain(join(home, ".cargo", "config.toml"));
    expect(layout.readOnly).not.toContain(join(home, ".cargo"));
  });

  it("stands in for a home folder that is also a working directory as for a project, but never for its shell files", () => {
    const context = buildPermissionContext({ cwd: home, confinement: true });
    const layout = layoutOf(home, { context });
    expect(layout.absent).toEqual(expect.arrayContaining([join(home, ".mcp.json"), join(home, ".git")]));
    expect(layout.absent).not.toContain(join(home, ".bash_profile"));
    expect(layout.readOnly).not.toContain(join(home, ".cargo"));
  });

  it("holds a project's .cargo read-only whole", () => {
    const root = project({ ".cargo/config.toml": "file" });
    expect(layoutOf(root).readOnly).toContain(join(root, ".cargo"));
  });

  it("stands in at the cwd's top level too, without pinning the cwd (a command may remove the folder it is in)", () => {
    const root = project({ ".git": "folder", sub: "folder" });
    const layout = layoutOf(root, { cwd: join(root, "sub") });
    expect(layout.absent).toEqual(
      expect.arrayContaining([join(root, "sub", ".git"), join(root, "sub", ".claude")]),
    );
    expect(layout.pins).not.toContain(join(root, "sub"));
  });

  it("covers the session's worktree, though it lives inside the project's .keel folder", () => {
    const main = project({ ".git/hooks": "folder" });
    const worktree = join(main, ".keel", "worktrees", "one");
    mkdirSync(worktree, { recursive: true });
    writeFileSync(join(worktree, ".git"), `gitdir: ${join(main, ".git")}\n`);
    const context = updatePermissionContext(buildPermissionContext({ cwd: worktree, confinement: true }), {
      worktreeRoot: worktree,
    });
    const layout = layoutOf(worktree, { context });
    expect(layout.readOnly).toEqual(expect.arrayContaining([join(worktree, ".git"), join(main, ".git")]));
    expect(layout.absent).toContain(join(worktree, ".claude"));
  });

  it("pins a protected folder that holds a working directory instead of making it read-only", () => {
    const root = project({ ".keel/worktrees/one": "folder" });
    const context = buildPermissionContext({
      cwd: root,
      additionalDirectories: [join(root, ".keel", "worktrees", "one")],
      confinement: true,
    });
    const layout = layoutOf(root, { context });
    expect(layout.pins).toContain(join(root, ".keel"));
    expect(layout.readOnly).not.toContain(join(root, ".keel"));
  });

  it("holds the fixed paths of Edit deny rules read-only and hides what Read deny rules cover", () => {
    const root = project({
      locked: "folder",
      "src/.env": "file",
      "src/app.ts": "file",
      "keys/a.pem": "file",
    });
    const context = addRules(buildPermissionContext({ cwd: root, confinement: true }), "deny", "project", [
      "Edit(./locked)",
      "Read(**/.env)",
      "Read(./keys/**)",
    ]);
    const layout = layoutOf(root, { context });
    expect(layout.readOnly).toContain(join(root, "locked"));
    expect(layout.hidden.files).toContain(join(root, "src", ".env"));
    expect(layout.hidden.folders).toContain(join(root, "keys"));
    expect(layout.hidden.files).not.toContain(join(root, "src", "app.ts"));
  });

  it("finds a file a Read deny pattern covers that appeared after an earlier look", () => {
    const root = project({ src: "folder" });
    const context = addRules(buildPermissionContext({ cwd: root, confinement: true }), "deny", "project", [
      "Read(*.secret)",
    ]);
    expect(layoutOf(root, { context }).hidden.files).toEqual([]);
    writeFileSync(join(root, "src", "new.secret"), "");
    expect(layoutOf(root, { context }).hidden.files).toEqual([join(root, "src", "new.secret")]);
  });
});
