// What a sub-agent leaves with its session so it can be resumed, in this process or after `keel -c`:
// beside its transcript (`<session>/subagents/agent-<id>.jsonl`), a small record: who it is, how it
// ended, and what it had read (paths, hashes and times, never the content). A session keeps the records
// and transcripts of its latest MAX_KEPT_AGENTS agents; older ones are deleted when a new one starts.
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { atomicWriteJson } from "../../settings/atomicJson.ts";
import type { FileReadRecord, FileStateCache, ToolUseContext } from "../../tool/context.ts";
import type { AgentStatus } from "./runningAgents.ts";

export const MAX_KEPT_AGENTS = 50;

/** What a read left behind, without the content (the transcript holds what the model saw). */
export interface PersistedRead {
  path: string;
  hash: string;
  mtimeMs: number;
  isPartialView: boolean;
  offset?: number;
  limit?: number;
}

export interface AgentRecord {
  version: 1;
  id: string;
  name?: string;
  agentType: string;
  description: string;
  isolation?: string;
  fork: boolean;
  background: boolean;
  status: AgentStatus;
  startedAt: number;
  lastActivityAt: number;
  model: string;
  cwd: string;
  worktree?: { path: string; branch: string };
  parentId?: string;
  reads: PersistedRead[];
}

/** The session's sub-agent folder (where their transcripts are), or undefined without a transcript. */
export function subagentsDir(context: ToolUseContext): string | undefined {
  const transcript = context.options.transcriptPath;
  if (!transcript) return undefined;
  return join(dirname(transcript), context.options.sessionId, "subagents");
}

/** The same folder from a transcript folder and session id (`keel -c` finds it before any context). */
export function subagentsDirOf(transcriptDir: string, sessionId: string): string {
  return join(transcriptDir, sessionId, "subagents");
}

export function agentTranscriptFile(dir: string, agentId: string): string {
  return join(dir, `agent-${agentId}.jsonl`);
}

function recordFile(dir: string, agentId: string): string {
  return join(dir, `agent-${agentId}.meta.json`);
}

export function snapshotReads(cache: FileStateCache): PersistedRead[] {
  const reads: PersistedRead[] = [];
  for (const path of cache.keys()) {
    const record = cache.get(path);
    if (!record) continue;
    reads.push({
      path,
      hash: record.hash,
      mtimeMs: record.mtimeMs,
      isPartialView: record.isPartialView,
      ...(record.offset !== undefined ? { offset: record.offset } : {}),
      ...(record.limit !== undefined ? { limit: record.limit } : {}),
    });
  }
  return reads;
}

/** Puts persisted reads back: an edit may follow them as long as the file is unchanged (same time or hash). */
export function restoreReads(cache: FileStateCache, reads: readonly PersistedRead[]): void {
  for (const read of reads) {
    const record: FileReadRecord = {
      content: "",
      hash: read.hash,
      mtimeMs: read.mtimeMs,
      isPartialView: read.isPartialView,
      ...(read.offset !== undefined ? { offset: read.offset } : {}),
      ...(read.limit !== undefined ? { limit: read.limit } : {}),
    };
    cache.set(read.path, record);
  }
}

export function saveAgentRecord(dir: string, record: AgentRecord): void {
  atomicWriteJson(recordFile(dir, record.id), record);
}

function isAgentRecord(value: unknown): value is AgentRecord {
  const record = value as Partial<AgentRecord> | null;
  return (
    typeof record === "object" &&
    record !== null &&
    record.version === 1 &&
    typeof record.id === "string" &&
    /^agent_[0-9a-f]+$/.test(record.id) &&
    typeof record.agentType === "string" &&
    typeof record.status === "string" &&
    Array.isArray(record.reads)
  );
}

/** The session's agent records, oldest first; unreadable ones are skipped. */
export function loadAgentRecords(dir: string): AgentRecord[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith(".meta.json"));
  } catch {
    return [];
  }
  const records: AgentRecord[] = [];
  for (const name of names) {
    try {
      const value: unknown = JSON.parse(readFileSync(join(dir, name), "utf8"));
      if (isAgentRecord(value)) records.push(value);
    } catch {
      // A torn or foreign file: not an agent that can be resumed.
    }
  }
  return records.sort((a, b) => a.startedAt - b.startedAt);
}

/** Deletes the records and transcripts of all but the latest `keep` agents. */
export function pruneAgentRecords(dir: string, keep = MAX_KEPT_AGENTS): string[] {
  const records = loadAgentRecords(dir);
  const old = records.slice(0, Math.max(0, records.length - keep));
  for (const record of old) {
    rmSync(recordFile(dir, record.id), { force: true });
    rmSync(agentTranscriptFile(dir, record.id), { force: true });
  }
  return old.map((record) => record.id);
}

export function transcriptExists(dir: string, agentId: string): boolean {
  try {
    return statSync(agentTranscriptFile(dir, agentId)).isFile();
  } catch {
    return false;
  }
}
