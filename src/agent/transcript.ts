// Session transcripts: one JSONL file per session under ~/.keel/projects/<project-slug>/ (KEEL_HOME
// moves it). Replaying the records rebuilds the conversation, so `--resume` and `--continue` pick up
// exactly where a session stopped, compactions included.
import { appendFileSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { keelUserDir } from "../settings/locations.ts";
import type { Message } from "../tool/messages.ts";
import { appendMessage } from "./conversation.ts";
import { roundUsd } from "./models.ts";
import { addUsage, type Usage, ZERO_USAGE } from "./provider.ts";

export type TranscriptRecord =
  | {
      type: "session";
      sessionId: string;
      cwd: string;
      provider: string;
      model: string;
      version: 1;
      time: string;
    }
  | { type: "message"; message: Message; time: string }
  | { type: "usage"; usage: Usage; costUsd: number | null; model: string; time: string }
  | { type: "compact"; summary: Message; kept: number; time: string }
  | { type: "tools_loaded"; names: string[]; time: string }
  | { type: "clear"; time: string };

export interface SessionState {
  sessionId: string;
  messages: Message[];
  usage: Usage;
  costUsd: number;
  loadedTools: string[];
  model?: string;
  provider?: string;
}

/** `/work/my app` -> `-work-my-app`: one folder per project, readable in a listing. */
export function projectSlug(projectRoot: string): string {
  return resolve(projectRoot).replace(/[^A-Za-z0-9]/g, "-");
}

export function transcriptDir(projectRoot: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(keelUserDir(env), "projects", projectSlug(projectRoot));
}

export class Transcript {
  readonly path: string;
  readonly sessionId: string;

  constructor(dir: string, sessionId: string) {
    mkdirSync(dir, { recursive: true });
    this.sessionId = sessionId;
    this.path = join(dir, `${sessionId}.jsonl`);
  }

  append(record: TranscriptRecord): void {
    // One synchronous append per record: a crash loses at most the record being written.
    appendFileSync(this.path, `${JSON.stringify(record)}\n`, { mode: 0o600 });
  }

  message(message: Message): void {
    this.append({ type: "message", message, time: new Date().toISOString() });
  }
}

/** Rebuilds a session from its records; a torn last line (a crash mid-write) is skipped. */
export function readTranscript(path: string): SessionState {
  const state: SessionState = {
    sessionId: "",
    messages: [],
    usage: { ...ZERO_USAGE },
    costUsd: 0,
    loadedTools: [],
  };
  const lines = readFileSync(path, "utf8").split("\n");
  for (const line of lines) {
    if (line.trim() === "") continue;
    let record: TranscriptRecord;
    try {
      record = JSON.parse(line) as TranscriptRecord;
    } catch {
      continue;
    }
    switch (record.type) {
      case "session":
        state.sessionId = record.sessionId;
        state.model = record.model;
        state.provider = record.provider;
        break;
      case "message":
        appendMessage(state.messages, record.message);
        break;
      case "usage":
        state.usage = addUsage(state.usage, record.usage);
        state.costUsd = roundUsd(state.costUsd + (record.costUsd ?? 0));
        state.model = record.model;
        break;
      case "compact":
        state.messages = [record.summary, ...(record.kept > 0 ? state.messages.slice(-record.kept) : [])];
        break;
      case "tools_loaded":
        state.loadedTools.push(...record.names);
        break;
      case "clear":
        state.messages = [];
        break;
    }
  }
  return state;
}

export interface SessionListing {
  sessionId: string;
  path: string;
  modifiedMs: number;
}

export function listSessions(dir: string): SessionListing[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith(".jsonl"))
    .map((name) => {
      const path = join(dir, name);
      return { sessionId: name.slice(0, -".jsonl".length), path, modifiedMs: statSync(path).mtimeMs };
    })
    .sort((a, b) => b.modifiedMs - a.modifiedMs);
}

/** The session named by id (or a unique prefix of one), or the latest when no id is given. */
export function findSession(dir: string, id?: string): SessionListing | { error: string } {
  const sessions = listSessions(dir);
  if (sessions.length === 0)
    return {
      error: `No saved sessions for this project (looked in ${dir}); leave out --continue/--resume to start one.`,
    };
  if (id === undefined) return sessions[0]!;
  const matches = sessions.filter((session) => session.sessionId.startsWith(id));
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0)
    return {
      error: `No session "${id}" for this project. Recent: ${sessions
        .slice(0, 5)
        .map((s) => s.sessionId)
        .join(", ")}`,
    };
  return { error: `"${id}" matches ${matches.length} sessions; give more of the id.` };
}
