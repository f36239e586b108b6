// Files written through a command's own options, which allow rules never cover: must and must-not rows.
import { beforeAll, describe, expect, it } from "vitest";
import { viewCommand } from "./commandView.ts";
import { extractEveryCommand } from "./grammar/everyCommand.ts";
import { initBashParser, withBashTree } from "./grammar/parse.ts";
import { commandOutputs } from "./outputs.ts";

beforeAll(async () => {
  await initBashParser();
});

function outputsOf(command: string): string[] {
  const commands = withBashTree(command, (root) => extractEveryCommand(root, command));
  return commands.flatMap((extracted) => commandOutputs(viewCommand(extracted)));
}

describe("commandOutputs", () => {
  it.each([
    ["sort -o out.txt in.txt", "out.txt"],
    ["sort in.txt --output=out.txt", "out.txt"],
    ["git diff --output=x.patch", "x.patch"],
    ["git log -p --outp=x.patch", "x.patch"],
    ["uniq in.txt out.txt", "out.txt"],
    ["sed -n 'w out.txt' in.txt", "out.txt"],
    ["awk '{ print > \"out.txt\" }' in.txt", "out.txt"],
    ["curl -o out.html https://example.com", "out.html"],
    ["curl -oout.html https://example.com", "out.html"],
    ["wget -O out.html https://example.com", "out.html"],
    ["gcc -o app main.c", "app"],
    ["tsc --outFile out.js", "out.js"],
    ["esbuild x.ts --outdir=dist", "dist"],
  ])("%j writes %j through an option", (command, file) => {
    expect(outputsOf(command)).toContain(file);
  });

  it.each([
    "sort in.txt",
    "rm out.txt",
    "cp a.txt b.txt",
    "mv a b",
    "tee out.txt",
    "touch out.txt",
    "git diff HEAD~1",
    "curl https://example.com",
    "npm test",
    "grep -o foo in.txt",
    "gcc -O2 main.c",
  ])("%j writes nothing through an option", (command) => {
    expect(outputsOf(command)).toEqual([]);
  });
});
