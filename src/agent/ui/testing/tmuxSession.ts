// The real `keel` program in a tmux pseudo-terminal for the UI tests: start it against a scripted model
// server, type with send-keys, read the screen with capture-pane, wait for what should appear.
import { execFileSync, spawnSync } from "node:child_process";
import { join } from "node:path";
import { TEST_KEY } from "../../testing/harness.ts";
import type { RecordedRequest } from "../../testing/script.ts";
import type { ScriptedServer } from "../../testing/server.ts";

export const hasTmux = spawnSync("tmux", ["-V"]).status === 0;
const ENTRY = join(import.meta.dirname, "..", "..", "..", "cli", "entry.ts");

function quote(value: string): string {
  return `'${value.replace(/'/g, "'\\''")}'`;
}

export class TmuxKeel {
  readonly #name: string;
  #socket: string;
  #starts = 0;

  constructor(name: string) {
    this.#name = name;
    this.#socket = `keel-${name}-${process.pid}`;
  }

  tmux(...args: string[]): string {
    return execFileSync("tmux", ["-L", this.#socket, ...args], { encoding: "utf8" });
  }

  /**
   * Starts keel in `project` in a tmux session named "keel" (ending the one before, if any): by default
   * the sources on this Node; `program` runs another start (a node binary and bin/keel.js).
   */
  start(options: {
    project: string;
    home: string;
    server: ScriptedServer;
    size?: { columns: number; rows: number };
    program?: string[];
    /** Words after the provider flags (a subcommand's task). */
    args?: string[];
  }): void {
    const env = [
      `PATH=${quote(process.env.PATH ?? "")}`,
      `HOME=${quote(options.home)}`,
      `KEEL_HOME=${quote(options.home)}`,
      `KEEL_MANAGED_SETTINGS=${quote(join(options.home, "none.json"))}`,
      `ANTHROPIC_API_KEY=${TEST_KEY}`,
      "TERM=xterm-256color",
    ].join(" ");
    const program = (options.program ?? [process.execPath, ENTRY]).map(quote).join(" ");
    const args = (options.args ?? []).map(quote).join(" ");
    // The shell outlives a Ctrl-C that reaches the whole foreground group (keel run), to say how keel ended.
    const command = `trap true INT; cd ${quote(options.project)} && env -i ${env} ${program} --provider anthropic --base-url ${options.server.url} --model claude-test ${args}; echo "EXITED $?"; sleep 60`;
    // A fresh tmux server each time (its own socket: a server still shutting down cannot be reused),
    // so nothing of an earlier run is left on the screen.
    if (this.#starts > 0) this.kill();
    this.#socket = `keel-${this.#name}-${process.pid}-${this.#starts++}`;
    const { columns, rows } = options.size ?? { columns: 110, rows: 45 };
    this.tmux("new-session", "-d", "-s", "keel", "-x", String(columns), "-y", String(rows), command);
  }

  /** Keys as tmux names them ("Enter", "BSpace", "C-a", "M-f", "BTab") or literal text. */
  send(...keys: string[]): void {
    this.tmux("send-keys", "-t", "keel", ...keys);
  }

  /** Text typed literally, every character as itself. */
  type(text: string): void {
    this.tmux("send-keys", "-t", "keel", "-l", text);
  }

  /** A bracketed paste of `text` (tmux wraps it when the program asked for bracketed paste). */
  paste(text: string): void {
    this.tmux("set-buffer", "-b", "keel-paste", "--", text);
    this.tmux("paste-buffer", "-p", "-d", "-b", "keel-paste", "-t", "keel");
  }

  /** Waits until the agent is idle (the status line no longer says it is working), then sends a prompt. */
  async prompt(text: string): Promise<void> {
    await this.waitFor(/^(?!working…|starting…)/, "the agent to be idle", () => this.bottom(1));
    this.send(text, "Enter");
  }

  screen(): string {
    return this.tmux("capture-pane", "-p", "-t", "keel", "-S", "-300");
  }

  /** The live part of the screen: the last `lines` lines (the prompt box and status line). */
  bottom(lines = 8): string {
    return this.tmux("capture-pane", "-p", "-t", "keel")
      .replace(/\s+$/, "")
      .split("\n")
      .slice(-lines)
      .join("\n");
  }

  async waitFor(pattern: RegExp, what: string, read: () => string = () => this.screen()): Promise<string> {
    let last = "";
    // A deadline only so that a test fails with the screen instead of hanging; on a busy machine a
    // start from source can take several seconds.
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      last = read();
      if (pattern.test(last)) return last;
      if (/EXITED \d+/.test(last) && !pattern.test("EXITED 0")) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`timed out waiting for ${what}; the screen shows:\n${last}`);
  }

  kill(): void {
    try {
      this.tmux("kill-server");
    } catch {
      // Already gone.
    }
  }
}

/** The text of the last user message the model got (a prompt, or "" for a tool result). */
export function lastPrompt(request: RecordedRequest): string {
  const messages = request.body.messages as Array<{ role: string; content: unknown }>;
  const last = messages.at(-1);
  if (!last) return "";
  if (typeof last.content === "string") return last.content;
  const blocks = last.content as Array<{ type: string; text?: string }>;
  return blocks
    .filter((block) => block.type === "text")
    .map((block) => block.text ?? "")
    .join("\n");
}

/** Whether the last user message carries tool results. */
export function isToolResultTurn(request: RecordedRequest): boolean {
  const last = (request.body.messages as Array<{ content: unknown }>).at(-1);
  return (
    Array.isArray(last?.content) &&
    (last.content as Array<{ type: string }>).some((b) => b.type === "tool_result")
  );
}
