// One request and one reply per connection, each a line of JSON.

export const PROTOCOL_VERSION = 1;

/** A request is bounded: an event over MAX_EVENT_BYTES is never sent (the caller says so itself). */
export const MAX_REQUEST_BYTES = 20 * 1024 * 1024;

export interface TtyFlags {
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
}

/** Standard input the client read before asking (a hook event), or why it could not. */
export type GivenStdin = { text: string } | { problem: string };

export type ServerRequest =
  | {
      type: "run";
      version: number;
      build: string;
      argv: string[];
      cwd: string;
      env: Record<string, string>;
      tty: TtyFlags;
      stdin?: GivenStdin;
    }
  | { type: "status"; version: number }
  | { type: "stop"; version: number };

export type ServerReply =
  | { type: "done"; stdout: string; stderr: string; exitCode: number }
  /** The server will not answer this one (another build or environment, or it failed): decide locally. */
  | { type: "declined"; reason: string }
  /** `requests`: the commands it answered (declined ones not counted). */
  | { type: "status"; pid: number; build: string; startedAt: string; requests: number; idleExitMs: number }
  | { type: "stopping" };

/** The message on the first line of what arrived; undefined when there is none or it is not JSON. */
export function firstLineMessage(parts: readonly Buffer[]): unknown {
  const text = Buffer.concat(parts).toString("utf8");
  const end = text.indexOf("\n");
  try {
    return JSON.parse(end === -1 ? text : text.slice(0, end));
  } catch {
    return undefined;
  }
}
