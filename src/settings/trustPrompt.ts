// The trust question, asked once per folder on a terminal. The answer "yes" is remembered in the user
// config; "no" is not, so the user is asked again next time (and the project's loosening parts stay off).

import type { Readable, Writable } from "node:stream";
import { LineReader } from "../permissions/prompters/lineReader.ts";
import type { Env } from "../tool/context.ts";
import type { UntrustedReport } from "./load.ts";
import { trustFolder, userConfigPath } from "./trust.ts";

export interface TrustQuestion {
  projectRoot: string;
  untrusted: readonly UntrustedReport[];
  input: Readable;
  output: Writable;
  env: Env;
  signal?: AbortSignal;
}

export function describeUntrusted(projectRoot: string, untrusted: readonly UntrustedReport[]): string {
  const lines = [
    `Do you trust the files in ${projectRoot}?`,
    "They ask for settings that loosen what Keel allows:",
  ];
  for (const report of untrusted) lines.push(`  ${report.file}: ${report.ignored.join("; ")}`);
  lines.push("Until you trust this folder these parts are ignored. Hooks and MCP servers run programs.");
  return lines.join("\n");
}

/** Asks; true (and remembered) only on an explicit yes. */
export async function askToTrustFolder(question: TrustQuestion): Promise<boolean> {
  // A line reader, not readline's question(): that never settles when the input closes first.
  const lines = new LineReader(question.input);
  try {
    question.output.write(`${describeUntrusted(question.projectRoot, question.untrusted)}\n`);
    question.output.write("Trust this folder? [y/N] ");
    const answer = await lines.next(question.signal);
    if (answer === undefined || !/^\s*y(es)?\s*$/i.test(answer)) return false;
    const trusted = trustFolder(question.projectRoot, question.env);
    question.output.write(
      `Trusted ${trusted} (remembered in ${userConfigPath(question.env)}; undo with \`keel trust --revoke ${trusted}\`).\n`,
    );
    return true;
  } finally {
    lines.close();
  }
}
