// What a command changes or reads without naming it, as a table: must and must-not rows.
import { beforeAll, describe, expect, it } from "vitest";
import { viewCommand } from "./commandView.ts";
import { extractEveryCommand } from "./grammar/everyCommand.ts";
import { initBashParser, withBashTree } from "./grammar/parse.ts";
import { hiddenTargets } from "./hiddenTargets.ts";

beforeAll(async () => {
  await initBashParser();
});

/** The hidden targets of the last command of a line, in short: "write?", "read?" or "below:a,b". */
function targetsOf(command: string): string[] {
  const commands = withBashTree(command, (root) => extractEveryCommand(root, command));
  const last = commands.at(-1);
  if (!last) return [];
  return hiddenTargets(viewCommand(last)).map((target) =>
    target.kind === "unknown"
      ? `${target.access}?`
      : `below:${target.folders.map((folder) => folder.value).join(",")}`,
  );
}

describe("hiddenTargets", () => {
  it.each([
    ["ls | xargs rm", "write?"],
    ["grep -rl x src | xargs sed -i s/x/y/", "write?"],
    ["find . | xargs touch", "write?"],
    ["ls | xargs cat", "read?"],
    ["tar xf a.tar", "write?"],
    ["tar -xzf a.tgz -C src", "write?"],
    ["tar --extract -f a.tar", "write?"],
    ["bsdtar -x -f a.tar", "write?"],
    ["unzip a.zip", "write?"],
    ["unzip -o a.zip -d src", "write?"],
    ["7z x a.7z", "write?"],
    ["cpio -idv < a.cpio", "write?"],
    ["patch -p1 < fix.patch", "write?"],
    ["git apply fix.patch", "write?"],
    ["git am 0001.patch", "write?"],
    ["chmod -R u+w .", "below:u+w,."],
    ["chown --recursive me src", "below:me,src"],
    ["find . -exec sed -i s/a/b/ {} +", "below:."],
    ["find -exec touch {} ;", "below:."],
    ["find src lib -ok rm {} ;", "below:src,lib"],
    ["rsync -a vendored/ .", "below:."],
    ["sort --files0-from=- < list", "read?"],
    ["wc --files0-from=list", "read?"],
    ["tar -cf out.tar -T list", "read?"],
    ["zip -@ out.zip < list", "read?"],
    ["cpio -o < list > out.cpio", "read?"],
  ])("%j changes or reads unnamed files (%s)", (command, expected) => {
    expect(targetsOf(command)).toContain(expected);
  });

  it.each([
    "ls | xargs echo",
    "ls | xargs -n1 basename",
    "ls | xargs curl",
    "tar -tf a.tar",
    "tar czf out.tgz src",
    "unzip -l a.zip",
    "7z l a.7z",
    "patch --dry-run -p1 < fix.patch",
    "patch src/index.ts fix.patch",
    "git apply --check fix.patch",
    "git apply --stat fix.patch",
    "chmod 755 .",
    "find . -exec grep -l x {} +",
    "find . -name '*.ts'",
    "rsync a.txt b.txt",
    "cat README.md",
  ])("%j names all it touches", (command) => {
    expect(targetsOf(command)).toEqual([]);
  });
});
