// The end-to-end checks' verdicts: each printed as PASS or FAIL with what was seen, and the count at the end.

export interface CheckResult {
  name: string;
  ok: boolean;
  detail: string;
}

const results: CheckResult[] = [];

/** Records and prints one check; `detail` is what was seen (shortened to one line). */
export function check(name: string, ok: boolean, detail: string): void {
  results.push({ name, ok, detail });
  process.stdout.write(
    `${ok ? "PASS" : "FAIL"}  ${name}\n      ${detail.replace(/\s+/g, " ").slice(0, 400)}\n`,
  );
}

/** Prints the count; true when every check passed. */
export function summarize(): boolean {
  const failed = results.filter((result) => !result.ok);
  process.stdout.write(`\n${results.length - failed.length} of ${results.length} checks passed\n`);
  for (const result of failed) process.stdout.write(`  failed: ${result.name}\n`);
  return failed.length === 0;
}
