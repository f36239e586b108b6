// What a command changes or reads without naming it, as a table: must and must-not rows.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { viewCommand } from "./commandView.ts";
import { extractEveryCommand } from "./grammar/everyCommand.ts";
import { initBashParser, withBashTree } from "./grammar/parse.ts";
import { hiddenTargets } from "./hiddenTargets.ts";
import { decideBash } from "./testing/decide.ts";
import { createTestProject, type TestProject } from "./testing/project.ts";

let project: TestProject;

beforeAll(async () => {
  await initBashParser();
  project = createTestProject();
});
afterAll(() => project.cleanup());

/** The hidden targets of the last command of a line, in short: "write?", "read?" or "below:a,b". */
function targetsOf(command: string): string[] {
  const commands = withBashTree(command, (root) => extractEveryCommand(root, command));
  const last = commands.at(-1);
  if (!last) return [];
  return hiddenTargets(viewCommand(last)).map((target) =>
    target.kind === "unknown"
      ? `${target.access}?`
      : target.kind === "below"
        ? `below:${target.folders.map((folder) => folder.value).join(",")}`
        : target.kind === "copy"
          ? `copy:${target.sources.map((source) => source.value).join(",")}>${target.destination.value}${target.recursive ? " -r" : ""}`
          : `named:${target.paths.map((path) => path.value).join(",")}`,
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
    ["sort --files0-from=- < list", "read?"],
    ["wc --files0-from=list", "read?"],
    ["tar -cf out.tar -T list", "read?"],
    ["zip -@ out.zip < list", "read?"],
    ["cpio -o < list > out.cpio", "read?"],
    // Writers whose names are known only when they run.
    ["pax -r < a.pax", "write?"],
    ["pax -rw src dest", "write?"],
    ["patch -p1 x.patch", "write?"],
    ["patch -i fix.patch", "write?"],
    ["patch -d src < fix.patch", "write?"],
    ["gunzip -N x.gz", "write?"],
    ["gzip -dN x.gz", "write?"],
    ["gzip --decompress --name x.gz", "write?"],
    ["python3 -m zipfile -e x.zip .", "write?"],
    ["python3 -m tarfile --extract x.tar", "write?"],
    ["cpio -pdm dest < list", "write?"],
    ["ar x lib.a", "write?"],
    ["ar -xv lib.a", "write?"],
    ["jar xf a.jar", "write?"],
    ["7zz x a.7z", "write?"],
    ["unrar e a.rar", "write?"],
    ["dpkg-deb -x a.deb out", "write?"],
    ["unsquashfs a.img", "write?"],
    ["wget -r https://example.com/", "write?"],
    ["wget --content-disposition https://example.com/x", "write?"],
    ["curl -OJ https://example.com/x", "write?"],
    ["ls -a | xargs -I@ rm -rf @", "write?"],
    ["ls | xargs -i mv {} {}.bak", "write?"],
    ["ls | xargs --replace=X cp X dest/", "write?"],
    ["ls | xargs -Q rm", "write?"],
    ["ls | parallel rm", "write?"],
    // Names made from operands.
    ["gzip -S rc .bash", "named:.bashrc"],
    ["gzip x", "named:x.gz"],
    ["gunzip x.tgz", "named:x.tar"],
    ["xz -d a.xz", "named:a"],
    ["scp host:.bashrc ~", "named:~,~/.bashrc"],
    ["scp host:a.txt host:b.txt dest/", "named:dest/a.txt,dest/b.txt"],
    ["scp a.txt b.txt dest/", "copy:a.txt,b.txt>dest/"],
    ["rsync a.txt b.txt", "copy:a.txt>b.txt"],
    ["rsync -a vendored/ .", "copy:vendored/.>. -r"],
    ["scp -r x/. .", "copy:x/.>. -r"],
    ["rsync -a host:x/ .", "write?"],
    ["scp -r host:dir .", "write?"],
    ["aws s3 sync s3://bucket/x .", "write?"],
    ["gsutil -m cp -r gs://b/x .", "write?"],
    ["rclone copy remote:x .", "write?"],
    ["wget https://example.com/.mcp.json", "named:.mcp.json"],
    ["curl -O https://example.com/dir/", "named:index.html"],
    ["scp 'host:*' .", "write?"],
    ["fd -e ts -x rm", "below:."],
    ["fd x src -X sed -i s/a/b/", "below:src"],
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
    "patch -p1 -i fix.patch src/index.ts",
    "gzip -c x > x.gz",
    "gunzip -t x.gz",
    "zcat x.gz",
    "zstd -o out.zst x",
    "scp a.txt host:dest/",
    "wget -O out.html https://example.com/x",
    "wget -q --spider -O /dev/null https://example.com",
    "curl https://example.com/x",
    "curl -o out https://example.com/x",
    "ar t lib.a",
    "cpio -t < a.cpio",
    "python3 -m zipfile -l x.zip",
    "python3 -m http.server",
    "ls | xargs -I{} echo {}",
    "fd -e ts -x wc -l",
    "git apply --check fix.patch",
    "git apply --stat fix.patch",
    "chmod 755 .",
    "find . -exec grep -l x {} +",
    "find . -name '*.ts'",
    "cat README.md",
  ])("%j names all it touches", (command) => {
    expect(targetsOf(command)).toEqual([]);
  });
});

describe("writes whose names are known only at run time ask in every mode (bypass mode)", () => {
  it.each([
    "pax -r < x.pax",
    "patch -p1 x.patch",
    "gunzip -N x.gz",
    "scp -r x/. .",
    "python3 -m zipfile -e x.zip .",
    "rsync -a host:x/ .",
    "cpio -idv < x.cpio",
    "unzip x.zip",
    "7z x x.7z",
    "ar x lib.a",
    "git apply x.patch",
    "git am x.mbox",
    "ls -a | xargs -I@ rm -rf @",
    "find . | xargs -i cp {} backup/",
    "gzip -S .json .mcp",
    "gunzip .mcp.json.gz",
    "gunzip -S .x .envrc.x",
    "scp host:x .gitmodules",
    "wget https://example.com/.gitmodules",
    "curl -O https://example.com/.mcp.json",
    "wget -r -nd https://example.com/",
  ])("%j asks", async (command) => {
    expect(await decideBash(project.root, command, { mode: "bypassPermissions" })).toBe("ask");
  });

  it.each([
    "gzip build.log",
    "gunzip build.log.gz",
    "scp host:notes.txt notes.txt",
    "rsync -a src/ backup/",
    "aws s3 cp ./out.txt s3://bucket/",
    "wget https://example.com/data.csv",
    "curl -O https://example.com/data.csv",
    "tar -czf out.tgz src",
    "ls | xargs -I{} echo {}",
    "find . -name '*.o' | xargs -0 wc -c",
  ])("%j is allowed", async (command) => {
    expect(await decideBash(project.root, command, { mode: "bypassPermissions" })).toBe("allow");
  });
});
