// Long generated scripts of ordinary commands joined with &&, ;, || and |: the analyzer's bench and
// the verdict snapshot both use them.
const FRAGMENTS = [
  "git status --short",
  "ls -la src",
  "grep -rn TODO src",
  "cat package.json | jq .version",
  "npm test",
  "rm -rf dist",
  "echo done > out.txt",
  "sed -n 1,20p README.md",
  "find src -name '*.ts' -type f",
  "cd src && ls",
  "git log --oneline -n 5 | head -3",
  "mkdir -p build",
];

/** A script of `count` commands joined with &&, ;, || and |. */
export function generatedScript(count: number, seed: number): string {
  const operators = [" && ", "; ", " || ", " | "];
  let script = "";
  for (let i = 0; i < count; i++) {
    if (i > 0) script += operators[(i * 7 + seed) % operators.length];
    script += FRAGMENTS[(i * 5 + seed) % FRAGMENTS.length];
  }
  return script;
}

/** The 20 scripts of 50 to 240 commands the bench times. */
export function generatedScripts(): string[] {
  return Array.from({ length: 20 }, (_, i) => generatedScript(50 + i * 10, i));
}
