// Issue #26, "the Claude Code hook fails open": with Keel's hook installed, a broken Keel settings file
// refuses every call (with the file:line:col shown to the model), and an ask that comes from a safety
// check (grep -r over a folder holding a path a Read deny rule covers) reaches Claude Code as its own
// "ask", so nothing runs where nobody can answer. Where bubblewrap runs, every session here runs confined
// (harness.ts confined): were the hook to fail open, what Claude Code ran could touch only the temporary world.
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stopServers } from "../../src/cli/decisionServer/control.ts";
import {
  auditRecords,
  canConfine,
  claudeEnv,
  claudeSession,
  keel,
  latestTranscript,
  makeWorld,
  resultOf,
  type ToolResultSeen,
  type World,
} from "./harness.ts";
import { check } from "./report.ts";

const SECRET = "keel-e2e-secret-7c41";
const GREP = "grep -r SECRET .";
const BYPASS = ["--dangerously-skip-permissions"];

/** Keel's settings with a trailing comma on line 3: the JSON cannot be read. */
const BROKEN_SETTINGS = '{\n  "permissions": {\n    "deny": ["Read(**/.env)"],\n  }\n}\n';
const SETTINGS = '{\n  "permissions": {\n    "deny": ["Read(**/.env)"]\n  }\n}\n';

function keelSettingsFile(world: World): string {
  return join(world.home, ".keel", "settings.json");
}

function shown(result: ToolResultSeen | undefined): string {
  return result ? `${result.isError ? "error: " : ""}${result.text}` : "no tool result";
}

/** The audit records written since `before` records were there (the log only grows during a run). */
function recordsSince(world: World, before: number): Array<Record<string, unknown>> {
  return auditRecords(world).slice(before);
}

/** What Claude Code's transcript of the last session says about one tool call. */
interface CallTrace {
  /** The session's permission mode as Claude Code recorded it. */
  mode: string;
  /** Each hook's answer for the call, as Claude Code recorded it: "PreToolUse ask (hook_success)". */
  hookAnswers: string[];
  /** True when Claude Code ran the tool (its result is the tool's output), false when it refused it. */
  ran: boolean | undefined;
  /** The start of the tool result Claude Code recorded. */
  result: string;
}

function hookAnswer(attachment: Record<string, unknown>): string {
  let decision = "no answer";
  try {
    const output = JSON.parse(String(attachment.stdout ?? "")) as {
      hookSpecificOutput?: { permissionDecision?: string; decision?: { behavior?: string } };
    };
    decision =
      output.hookSpecificOutput?.permissionDecision ??
      output.hookSpecificOutput?.decision?.behavior ??
      decision;
  } catch {
    // Not JSON (an empty answer): no opinion.
  }
  return `${String(attachment.hookEvent)} ${decision} (${String(attachment.type)})`;
}

function traceOf(world: World, toolUseId: string): CallTrace {
  const records = latestTranscript(world);
  const first = records.find((record) => record.type === "user" && typeof record.permissionMode === "string");
  const hookAnswers = records
    .map((record) => record.attachment as Record<string, unknown> | undefined)
    .filter((attachment) => attachment?.toolUseID === toolUseId && attachment.hookEvent !== undefined)
    .map((attachment) => hookAnswer(attachment as Record<string, unknown>));
  const result = records.find(
    (record) =>
      record.type === "user" &&
      JSON.stringify((record.message as { content?: unknown } | undefined)?.content ?? "").includes(
        `"tool_use_id":"${toolUseId}"`,
      ),
  );
  // A tool that ran leaves its output as an object (Bash: stdout, stderr); a refusal leaves "Error: ...".
  const ran = result === undefined ? undefined : typeof result.toolUseResult === "object";
  const text =
    typeof result?.toolUseResult === "string"
      ? result.toolUseResult
      : JSON.stringify(result?.toolUseResult ?? "");
  return { mode: String(first?.permissionMode ?? "unknown"), hookAnswers, ran, result: text.slice(0, 90) };
}

function describeTrace(trace: CallTrace): string {
  const hooks = trace.hookAnswers.length > 0 ? trace.hookAnswers.join(", ") : "no hook answer recorded";
  const outcome =
    trace.ran === undefined ? "no tool result recorded" : trace.ran ? "the tool ran" : "the tool did not run";
  return `Claude Code's transcript (permissionMode ${trace.mode}): ${hooks}; ${outcome}: ${trace.result}`;
}

/** 1-based line:column of `index` in `text`. */
function lineColumn(text: string, index: number): string {
  const before = text.slice(0, index).split("\n");
  return `${before.length}:${(before.at(-1)?.length ?? 0) + 1}`;
}

/** Where a reader may be sent for the trailing comma: the comma itself, or the `}` it stands before. */
function brokenPlaces(): string[] {
  const comma = BROKEN_SETTINGS.indexOf("],") + 1;
  return [
    lineColumn(BROKEN_SETTINGS, comma),
    lineColumn(BROKEN_SETTINGS, BROKEN_SETTINGS.indexOf("}", comma)),
  ];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

async function brokenSettings(binary: string, world: World, confine: boolean): Promise<void> {
  writeFileSync(keelSettingsFile(world), BROKEN_SETTINGS);
  const before = auditRecords(world).length;
  const rm = `rm -rf ${join(world.project, "build")}`;
  const results = await claudeSession(
    binary,
    world,
    [
      { name: "Read", input: { file_path: join(world.project, ".env") } },
      { name: "Bash", input: { command: rm } },
    ],
    { extra: BYPASS, confine },
  );
  const places = brokenPlaces().map(escapeRegExp).join("|");
  const where = new RegExp(`${escapeRegExp(keelSettingsFile(world))}:(${places}) cannot be read`);
  const refusedWithReason = (result: ToolResultSeen | undefined) =>
    result?.isError === true && /Keel refused this call/.test(result.text) && where.test(result.text);
  const [read, bash] = [resultOf(results, 0), resultOf(results, 1)];
  check(
    `broken Keel settings, --dangerously-skip-permissions: the Read of .env is refused, the model sees settings.json:${brokenPlaces().join(" or ")}`,
    refusedWithReason(read) && !read?.text.includes(SECRET),
    shown(read),
  );
  check(
    "broken Keel settings, --dangerously-skip-permissions: `rm -rf <project>/build` is refused with the same reason",
    refusedWithReason(bash),
    shown(bash),
  );
  const traces = ["toolu_e2e_0", "toolu_e2e_1"].map((id) => traceOf(world, id));
  check(
    "broken Keel settings: Claude Code recorded both calls as blocked by the PreToolUse hook and ran neither",
    // A hook's deny leaves no hook record in the transcript, only the tool result "PreToolUse:<Tool> hook error: ...".
    traces.every(
      (trace) => trace.ran === false && /^Error: PreToolUse:\w+ hook error: Keel refused/.test(trace.result),
    ),
    traces.map(describeTrace).join(" / "),
  );
  check(
    "broken Keel settings: build/ is still there",
    existsSync(join(world.project, "build", "keep.txt")),
    "build/keep.txt",
  );
  const refusals = recordsSince(world, before).filter(
    (record) =>
      record.agent === "claude-code" &&
      record.hookEvent === "PreToolUse" &&
      record.behavior === "deny" &&
      /settings-unreadable/.test(String(record.decidedBy)),
  );
  check(
    "broken Keel settings: the audit log shows both refusals, decided by the settings check",
    refusals.some((record) => record.tool === "Read") &&
      refusals.some((record) => String(record.inputSummary).includes(rm)),
    JSON.stringify(refusals.map(({ tool, behavior, decidedBy }) => ({ tool, behavior, decidedBy }))),
  );
}

/** How Keel's answer to the search should reach Claude Code, in a mode (and who decided it, in the audit log). */
interface Expected {
  label: string;
  extra: string[];
  answer: "ask" | "deny";
  decidedBy: RegExp;
  decidedByText: string;
}

const SEARCH_MODES: Expected[] = [
  {
    label: "default mode, -p",
    extra: [],
    answer: "ask",
    decidedBy: /^safety check/,
    decidedByText: "a safety check",
  },
  {
    label: "--dangerously-skip-permissions",
    extra: BYPASS,
    answer: "ask",
    decidedBy: /^safety check/,
    decidedByText: "a safety check",
  },
  {
    label: "--permission-mode dontAsk",
    extra: ["--permission-mode", "dontAsk"],
    answer: "deny",
    decidedBy: /^permission mode dontAsk/,
    decidedByText: "the mode dontAsk",
  },
];

/** `grep -r SECRET .` with the hook installed and `Read(**\/.env)` denied in Keel's settings: not run. */
async function searchNotRun(
  binary: string,
  world: World,
  confine: boolean,
  expected: Expected,
): Promise<void> {
  const { label, extra, answer } = expected;
  writeFileSync(keelSettingsFile(world), SETTINGS);
  const before = auditRecords(world).length;
  const results = await claudeSession(binary, world, [{ name: "Bash", input: { command: GREP } }], {
    extra,
    confine,
  });
  const grep = resultOf(results, 0);
  check(
    `${label}: \`${GREP}\` over a folder holding a denied .env is not run (the secret never reaches the model)`,
    grep?.isError === true && !grep.text.includes(SECRET),
    shown(grep),
  );
  const trace = traceOf(world, "toolu_e2e_0");
  // An ask is recorded as the hook's answer; a deny only as the tool result "PreToolUse:Bash hook error: ...".
  const reached =
    answer === "ask"
      ? trace.hookAnswers.some((hook) => hook.startsWith("PreToolUse ask"))
      : /^Error: PreToolUse:Bash hook error: Keel refused/.test(trace.result);
  check(
    `${label}: Keel's answer reached Claude Code as its own "${answer}", and Claude Code did not run grep`,
    reached && trace.ran === false,
    describeTrace(trace),
  );
  const records = recordsSince(world, before).filter(
    (record) => record.agent === "claude-code" && String(record.inputSummary).includes(GREP),
  );
  const decided = records.find((record) => record.hookEvent === "PreToolUse");
  check(
    `${label}: the audit log records ${answer === "ask" ? "an ask" : "a deny"} decided by ${expected.decidedByText}`,
    decided?.behavior === answer && expected.decidedBy.test(String(decided.decidedBy)),
    JSON.stringify(
      records.map(({ hookEvent, behavior, decidedBy, mode }) => ({ hookEvent, behavior, decidedBy, mode })),
    ),
  );
}

export async function failClosedChecks(binary: string): Promise<void> {
  const world = makeWorld("keel-claude-code-guard-");
  // Where bubblewrap runs, Claude Code runs with / read-only but for the world (see harness.ts confined).
  const confine = canConfine();
  process.stdout.write(
    confine
      ? "(Claude Code runs in bubblewrap: only the temporary world is writable)\n"
      : "(no bubblewrap here: Claude Code runs unconfined; the commands can only touch the temporary world)\n",
  );
  try {
    writeFileSync(join(world.project, ".env"), `SECRET_TOKEN=${SECRET}\n`);
    mkdirSync(join(world.home, ".keel"));
    // Without Keel, Claude Code runs grep on its own: the check below can fail.
    const [control] = await claudeSession(binary, world, [{ name: "Bash", input: { command: GREP } }], {
      confine,
    });
    check(
      `without Keel, Claude Code runs \`${GREP}\` and the model gets the secret (what Keel must prevent)`,
      control !== undefined && !control.isError && control.text.includes(SECRET),
      shown(control),
    );
    const install = keel(world, ["hook", "install", "claude-code", "--user"]);
    check(
      "keel hook install claude-code --user (guard world)",
      install.status === 0,
      install.stdout + install.stderr,
    );
    await brokenSettings(binary, world, confine);
    for (const expected of SEARCH_MODES) await searchNotRun(binary, world, confine, expected);
  } finally {
    await stopServers(claudeEnv(world, "http://127.0.0.1:9"));
    if (!process.env.KEEL_E2E_KEEP) rmSync(world.base, { recursive: true, force: true });
    else process.stdout.write(`kept ${world.base}\n`);
  }
}
