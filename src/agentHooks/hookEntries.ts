// Keel's entries in an agent's hook settings: `{hooks: {Event: [{matcher, hooks: [{type: "command",
// command, timeout}]}]}}`, the shape Claude Code, Gemini CLI and Codex share. Adding is idempotent and
// keeps every other hook; removing takes out exactly the entries that run `keel hook <agent>`.
import type { AgentName } from "./types.ts";

export type SettingsObject = Record<string, unknown>;

export interface KeelHookSpec {
  agent: AgentName;
  events: readonly string[];
  /** The group's matcher; absent: every tool. */
  matcher?: string;
  /** The hook object Keel adds (type, command, timeout and whatever the agent wants besides). */
  hook: Record<string, unknown> & { command: string };
}

export interface FoundEntry {
  event: string;
  command: string;
}

export type Change = { kind: "added" | "updated" | "removed"; event: string; command: string };

/** True for a command that runs `keel hook <agent>` (bin/keel.js, a `keel` on PATH, npx keel...). */
export function isKeelHookCommand(command: unknown, agent: AgentName): boolean {
  if (typeof command !== "string") return false;
  // The agent's name ends at a space, the end, or a shell separator (`exec keel hook codex; ...`).
  const pattern = new RegExp(`keel(?:\\.js)?['"]?\\s+hook\\s+${agent.replace("-", "\\-")}(?=[\\s;&|)]|$)`);
  return pattern.test(command);
}

function objectOrUndefined(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function groupsOf(settings: SettingsObject, event: string): unknown[] {
  const hooks = objectOrUndefined(settings.hooks);
  const groups = hooks?.[event];
  return Array.isArray(groups) ? groups : [];
}

function hooksOfGroup(group: unknown): unknown[] {
  const hooks = objectOrUndefined(group)?.hooks;
  return Array.isArray(hooks) ? hooks : [];
}

/** Keel's entries for this agent, event by event. */
export function findKeelHooks(settings: SettingsObject, agent: AgentName): FoundEntry[] {
  const hooks = objectOrUndefined(settings.hooks) ?? {};
  const found: FoundEntry[] = [];
  for (const event of Object.keys(hooks)) {
    for (const group of groupsOf(settings, event))
      for (const hook of hooksOfGroup(group)) {
        const command = objectOrUndefined(hook)?.command;
        if (isKeelHookCommand(command, agent)) found.push({ event, command: command as string });
      }
  }
  return found;
}

/** The settings without this agent's Keel entries; groups and events left empty by that go too. */
export function removeKeelHooks(
  settings: SettingsObject,
  agent: AgentName,
): { settings: SettingsObject; changes: Change[] } {
  const hooks = objectOrUndefined(settings.hooks);
  if (!hooks) return { settings, changes: [] };
  const changes: Change[] = [];
  const nextHooks: Record<string, unknown> = {};
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) {
      nextHooks[event] = groups;
      continue;
    }
    const nextGroups: unknown[] = [];
    for (const group of groups) {
      const inner = hooksOfGroup(group);
      const kept = inner.filter((hook) => {
        const command = objectOrUndefined(hook)?.command;
        if (!isKeelHookCommand(command, agent)) return true;
        changes.push({ kind: "removed", event, command: command as string });
        return false;
      });
      if (kept.length === inner.length) nextGroups.push(group);
      else if (kept.length > 0) nextGroups.push({ ...(group as object), hooks: kept });
    }
    if (nextGroups.length > 0 || groups.length === 0) nextHooks[event] = nextGroups;
  }
  if (changes.length === 0) return { settings, changes };
  const next: SettingsObject = { ...settings, hooks: nextHooks };
  if (Object.keys(nextHooks).length === 0) delete next.hooks;
  return { settings: next, changes };
}

function sameHook(a: unknown, b: Record<string, unknown>): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The settings with Keel's entry for each event: left as is when exactly ours is there, replaced when
 * another `keel hook <agent>` entry is (other flags or path), added as a new group otherwise.
 */
export function addKeelHooks(
  settings: SettingsObject,
  spec: KeelHookSpec,
): { settings: SettingsObject; changes: Change[] } {
  const hooks: Record<string, unknown> = { ...(objectOrUndefined(settings.hooks) ?? {}) };
  const changes: Change[] = [];
  const wantedGroup = {
    ...(spec.matcher === undefined ? {} : { matcher: spec.matcher }),
    hooks: [spec.hook],
  };
  for (const event of spec.events) {
    const groups = groupsOf(settings, event);
    const isOurs = (hook: unknown) => isKeelHookCommand(objectOrUndefined(hook)?.command, spec.agent);
    const keelGroups = groups.filter((group) => hooksOfGroup(group).some(isOurs));
    if (keelGroups.length === 1 && sameHook(keelGroups[0], wantedGroup)) continue;
    // Ours replaces any other Keel entry for this agent; every other hook stays where it was.
    const cleaned = groups
      .map((group) => {
        const inner = hooksOfGroup(group);
        const kept = inner.filter((hook) => !isOurs(hook));
        return kept.length === inner.length
          ? group
          : kept.length > 0
            ? { ...(group as object), hooks: kept }
            : undefined;
      })
      .filter((group) => group !== undefined);
    hooks[event] = [...cleaned, wantedGroup];
    changes.push({ kind: keelGroups.length > 0 ? "updated" : "added", event, command: spec.hook.command });
  }
  if (changes.length === 0) return { settings, changes };
  return { settings: { ...settings, hooks }, changes };
}
