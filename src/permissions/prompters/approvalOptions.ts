// What an approval question offers, and what each answer does. The terminal prompter and the terminal
// UI show this one list, so both say the same thing: the call as it will run (an edit's diff, the whole
// command), then "yes", a narrow "yes, and don't ask again" that names its reach and where it is kept,
// and "no". Nothing broader than the tool's own suggestion is ever offered.
import type { ApprovalAnswer, ApprovalRequest } from "../../pipeline/services.ts";
import { addRuleToSettingsFile } from "../../settings/addRule.ts";
import { localSettingsPath } from "../../settings/locations.ts";
import { addRules, updatePermissionContext } from "../../tool/context.ts";
import { errorMessage } from "../../tool/errors.ts";
import type { Tool, ToolView } from "../../tool/Tool.ts";
import { callPath, isInWorkingDirectories } from "../paths.ts";
import { plainDecider } from "../types.ts";
import { describeRulesReach } from "./ruleReach.ts";

export type ApprovalEffect =
  | { kind: "once" }
  /** Switch the session to acceptEdits (nothing is saved). */
  | { kind: "acceptEdits" }
  /** Allow rules, saved in the project's local settings file, or kept for this session only. */
  | { kind: "rules"; rules: string[]; file?: string }
  | { kind: "no" };

export interface ApprovalOption {
  /** What the person types or presses: "1", "2", "3". */
  key: string;
  /** The letter that also picks it: y, a (the "always" kind) or n. */
  letter: "y" | "a" | "n";
  label: string;
  /** Exactly what happens and where it is kept, for the choices that last beyond this call. */
  detail?: string;
  effect: ApprovalEffect;
}

export interface ApprovalPrompt {
  /** The call in a few words: `Bash(npm test)`, `Edit(/p/src/a.ts)`. */
  title: string;
  /** The call as it will run: an edit's diff, the whole command, the head of a new file. */
  preview: ToolView;
  /** Why approval is needed, and who said so. */
  reason: string;
  options: ApprovalOption[];
}

export interface ApprovalSettings {
  /** "Don't ask again" may be saved in the project's local settings file (trusted folders only). */
  persist: boolean;
  /**
   * Who made the call: a model ("No" then tells it what to do instead) or a person (`keel tool`, a
   * `!command` typed in the terminal UI: a plain "No"). Default: a model.
   */
  caller?: "model" | "person";
  /** Shift+Tab changes the mode where this is asked (the terminal UI). Default: true for a model's call. */
  modeKey?: boolean;
}

/** The rule a blanket "always" would add: the tool's own allow suggestion, or the bare name when the tool's rules take no specifier. */
export function alwaysRuleFor(request: ApprovalRequest): string | undefined {
  const suggested = request.suggestions.find((suggestion) => suggestion.behavior === "allow");
  if (suggested) return suggested.rule;
  return request.tool.ruleMatcher ? undefined : request.tool.name;
}

function safely<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

function shortJson(value: unknown, max: number): string {
  const text = safely(() => JSON.stringify(value)) ?? String(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function callTitle(tool: Tool, input: unknown, view: ToolView | undefined): string {
  const name = safely(() => tool.userFacingName(input)) ?? tool.name;
  // A command is shown whole right below: the title only names the kind.
  if (view?.kind === "command") return `${name} command`;
  const target = safely(() => tool.getPath?.(input)) ?? shortJson(input, 80);
  return `${name}(${target.length > 100 ? `${target.slice(0, 100)}…` : target})`;
}

async function previewOf(request: ApprovalRequest): Promise<ToolView> {
  const { tool, input, context } = request;
  const preview = await Promise.resolve()
    .then(() => tool.renderToolUsePreview?.(input, context))
    .catch(() => undefined);
  return (
    preview ??
    safely(() => tool.renderToolUse?.(input)) ?? {
      kind: "text",
      text: safely(() => JSON.stringify(input, null, 2)) ?? String(input),
    }
  );
}

/** Edits inside the working directories: what acceptEdits mode allows. */
function isEditInsideWorkingDirs(request: ApprovalRequest): boolean {
  const { tool, input, context } = request;
  if (!(tool.permissionRuleNames ?? [tool.name]).includes("Edit")) return false;
  const path = safely(() => tool.getPath?.(input));
  if (!path) return false;
  const state = context.getAppState();
  return isInWorkingDirectories(callPath(path, state), state.toolPermissionContext, state.cwd);
}

/** Asks that no rule or mode can answer next time: an "always" would be a promise not kept. */
function alwaysAsks(request: ApprovalRequest): boolean {
  const reason = request.decision.decisionReason;
  return (
    reason.type === "safetyCheck" ||
    reason.type === "hook" ||
    (reason.type === "rule" && reason.rule.behavior === "ask") ||
    request.tool.requiresUserInteraction?.() === true
  );
}

function narrowAlways(
  request: ApprovalRequest,
  settings: ApprovalSettings,
): Omit<ApprovalOption, "key"> | undefined {
  if (alwaysAsks(request)) return undefined;
  const policy = request.context.getAppState().toolPermissionContext;
  if (isEditInsideWorkingDirs(request)) {
    // A path rule here would cover the whole project; the mode says what it does.
    if (policy.mode !== "default") return undefined;
    return {
      letter: "a",
      label: "Yes, allow all edits during this session",
      detail: `Switches this session to acceptEdits mode: edits inside the working directories stop asking. Nothing is saved${(settings.modeKey ?? settings.caller !== "person") ? "; Shift+Tab changes the mode." : "."}`,
      effect: { kind: "acceptEdits" },
    };
  }
  const suggested = request.suggestions.filter((suggestion) => suggestion.behavior === "allow");
  const bare = suggested.length === 0 ? alwaysRuleFor(request) : undefined;
  const rules = bare ? [bare] : suggested.map((suggestion) => suggestion.rule);
  if (rules.length === 0) return undefined;
  // A bare tool rule goes where the tool's own suggestions go: the project's local settings.
  const sessionOnly = !bare && suggested.every((suggestion) => suggestion.destination === "session");
  const reach = describeRulesReach(rules, policy.projectRoot);
  const ruleList = rules.join(", ");
  if (!sessionOnly && settings.persist) {
    const file = localSettingsPath(policy.projectRoot);
    return {
      letter: "a",
      label: `Yes, and don't ask again for ${reach} in ${policy.projectRoot}`,
      detail: `Adds the allow rule ${ruleList} to ${file}.`,
      effect: { kind: "rules", rules, file },
    };
  }
  return {
    letter: "a",
    label: `Yes, and don't ask again for ${reach} during this session`,
    detail: `Adds the allow rule ${ruleList} for this session only${sessionOnly ? "; nothing is saved" : " (this folder is not trusted, so nothing is saved)"}.`,
    effect: { kind: "rules", rules },
  };
}

/**
 * Why the question is asked, in plain words: the message, and who asked when it was not simply that no
 * rule allows the call (which the message already says).
 */
function askedBecause(request: ApprovalRequest): string {
  const reason = request.decision.decisionReason;
  return reason.type === "default" ? request.message : `${request.message} (${plainDecider(reason)})`;
}

/** The question for one request: what will run, why it asks, and the choices. */
export async function describeApproval(
  request: ApprovalRequest,
  settings: ApprovalSettings,
): Promise<ApprovalPrompt> {
  const preview = await previewOf(request);
  const always = narrowAlways(request, settings);
  const choices: Array<Omit<ApprovalOption, "key">> = [
    { letter: "y", label: "Yes", effect: { kind: "once" } },
    ...(always ? [always] : []),
    {
      letter: "n",
      label: settings.caller === "person" ? "No" : "No, and tell the model what to do instead",
      effect: { kind: "no" },
    },
  ];
  return {
    title: callTitle(request.tool, request.input, preview),
    preview,
    reason: askedBecause(request),
    options: choices.map((choice, index) => ({ ...choice, key: String(index + 1) })),
  };
}

/** The option a typed word names: its number, its letter, or yes / always / no. */
export function optionForWord(options: readonly ApprovalOption[], word: string): ApprovalOption | undefined {
  const answer = word.trim().toLowerCase();
  const letter = answer === "yes" ? "y" : answer === "always" ? "a" : answer === "no" ? "n" : answer;
  return options.find((option) => option.key === answer || option.letter === letter);
}

/** Carries out the chosen option; `notes` tell the person what was changed and where. */
export function applyApproval(
  request: ApprovalRequest,
  option: ApprovalOption,
  reason?: string,
): { answer: ApprovalAnswer; notes: string[] } {
  const effect = option.effect;
  switch (effect.kind) {
    case "once":
      return { answer: { behavior: "allow", choice: "once" }, notes: [] };
    case "no":
      return { answer: { behavior: "deny", ...(reason ? { reason } : {}) }, notes: [] };
    case "acceptEdits":
      request.context.setAppState((state) => ({
        ...state,
        toolPermissionContext: updatePermissionContext(state.toolPermissionContext, { mode: "acceptEdits" }),
      }));
      return {
        answer: { behavior: "allow", choice: "always" },
        notes: [
          "Permission mode: acceptEdits for this session (edits inside the working directories no longer ask).",
        ],
      };
    case "rules":
      return applyRules(request, effect.rules, effect.file);
  }
}

function applyRules(
  request: ApprovalRequest,
  rules: readonly string[],
  file: string | undefined,
): { answer: ApprovalAnswer; notes: string[] } {
  const notes: string[] = [];
  let destination: "local" | "session" = "session";
  if (file) {
    try {
      for (const rule of rules) addRuleToSettingsFile(file, "allow", rule);
      destination = "local";
      notes.push(`Saved: allow ${rules.join(", ")} in ${file}`);
    } catch (error) {
      notes.push(`Could not save the rule (${errorMessage(error)}); it applies for this session only.`);
    }
  } else {
    notes.push(`Allowed for this session: ${rules.join(", ")}`);
  }
  request.context.setAppState((state) => ({
    ...state,
    toolPermissionContext: addRules(state.toolPermissionContext, "allow", destination, [...rules]),
  }));
  const first = rules[0] as string;
  return {
    answer: { behavior: "allow", choice: "always", rule: { behavior: "allow", rule: first, destination } },
    notes,
  };
}
