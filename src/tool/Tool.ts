// What a tool is. A tool knows itself: schema, flags, permissions, prompt and views are all members.
import type * as z from "zod";
import type { PermissionResult, PermissionRule } from "../permissions/types.ts";
import type { ToolPermissionContext, ToolUseContext } from "./context.ts";
import { ToolDefinitionError, type ToolErrorCode } from "./errors.ts";
import type { ToolResultBlock, ToolUseBlock } from "./messages.ts";
import type { ToolMeta } from "./toolMeta.ts";

export type JSONSchema = Record<string, unknown>;

// biome-ignore lint/suspicious/noExplicitAny: the schema's own type parameters are checked where tools are defined
export type AnyZodSchema = z.ZodType<any, any>;

export type ValidationResult =
  | { result: true }
  | { result: false; message: string; errorCode?: ToolErrorCode };

/** What call() resolves to. contextModifier runs after the call's batch, in call order. */
export interface ToolResult<Output> {
  data: Output;
  contextModifier?: (context: ToolUseContext) => ToolUseContext;
  /** Structured form of the output for clients that take it (MCP structuredContent). */
  structuredContent?: Record<string, unknown>;
}

export interface ToolProgress<P> {
  toolUseId: string;
  data: P;
}

/** UI-neutral views; the terminal UI and MCP render them. */
export type ToolView =
  | { kind: "text"; text: string }
  | { kind: "command"; command: string; output?: string; exitCode?: number }
  | { kind: "diff"; path: string; patch: string; summary?: string }
  | { kind: "list"; title?: string; items: string[] }
  | { kind: "progress"; text: string };

export interface PromptOptions {
  tools: Tools;
  permissionMode?: string;
  /**
   * The caller cannot see the model's conversation (an MCP server: one connection may serve many chats,
   * or outlive a compaction), so a prompt promises nothing that depends on what the model saw earlier.
   */
  conversationless?: boolean;
}

/** One multiple-choice question for the person (AskUserQuestion). */
export interface UserQuestion {
  question: string;
  /** A very short label (a form field's title). */
  header: string;
  options: readonly { label: string; description: string }[];
  multiSelect: boolean;
}

/**
 * A tool whose call is a set of questions for the person: a prompter that can show a form asks these
 * instead of an approval, and approves the call with the answers put into the input.
 */
export interface UserQuestions<Input> {
  questions(input: Input): readonly UserQuestion[];
  /** Question text -> the answer (several chosen labels joined with ", ", or the person's own words). */
  withAnswers(input: Input, answers: Record<string, string>): Input;
}

export type CanUseTool = (
  tool: Tool,
  input: unknown,
  context: ToolUseContext,
) => Promise<{ behavior: "allow" | "deny"; message?: string }>;

export type Flag<Input> = boolean | ((input: Input) => boolean);

/** A tool as the pipeline sees it: every member present (its facts, name first, are its ToolMeta). */
export interface Tool<Input = unknown, Output = unknown, Progress = unknown> extends ToolMeta {
  readonly searchHint?: string;
  readonly inputSchema: AnyZodSchema;
  /** Raw JSON Schema given to the model instead of the zod conversion (MCP tools). */
  readonly inputJSONSchema?: JSONSchema;
  readonly outputSchema?: AnyZodSchema;
  readonly maxResultSizeChars: number;
  readonly strict?: boolean;
  readonly shouldDefer?: boolean;
  readonly alwaysLoad?: boolean;
  readonly isMcp?: boolean;
  readonly mcpInfo?: { serverName: string; toolName: string };
  /** Meaningful only inside Keel's own agent loop (sub-agents, plan mode): not served over MCP. */
  readonly requiresAgentLoop?: boolean;
  /** An error of this tool in a parallel batch cancels its running siblings (Bash: later commands often depend on it). */
  readonly errorCancelsSiblings?: boolean;
  /**
   * How this tool's content rules (`Name(specifier)`) read a call. Without one, deny and ask content
   * rules cover every call (fail closed) and allow content rules none.
   */
  readonly ruleMatcher?: RuleContentMatcher;

  call(
    input: Input,
    context: ToolUseContext,
    canUseTool: CanUseTool,
    parentMessage: ToolUseBlock | undefined,
    onProgress: (progress: ToolProgress<Progress>) => void,
  ): Promise<ToolResult<Output>>;
  description(input: Input, options: PromptOptions): Promise<string> | string;
  prompt(options: PromptOptions): Promise<string> | string;
  validateInput?(input: Input, context: ToolUseContext): Promise<ValidationResult> | ValidationResult;
  checkPermissions(input: Input, context: ToolUseContext): Promise<PermissionResult<Input>>;
  /** A tool that only a person can answer (AskUserQuestion): its ask is never auto-approved. */
  requiresUserInteraction?(): boolean;
  /** The questions such a tool asks, for prompters that can show them (MCP elicitation). */
  readonly userQuestions?: UserQuestions<Input>;
  /** A short title for clients that show one (MCP annotations); default: userFacingName(). */
  readonly title?: string;
  /**
   * Changes state the session keeps (a task or todo list) though it touches no files: read-only for
   * permissions and plan mode, but not read-only to MCP clients.
   */
  readonly changesSessionState?: boolean;
  /** Extra facts for `keel check` (Bash: the parsed parts and which check fired). */
  explainPermission?(input: Input, context: ToolUseContext): Promise<Record<string, unknown>>;
  /** The file or folder a call touches, for path rules. */
  getPath?(input: Input): string | undefined;
  isEnabled(): boolean;
  /**
   * Loads what the synchronous questions below (isConcurrencySafe, isReadOnly, rule matching) need for
   * this input, so their answers never depend on whether something had loaded yet (Bash: the grammar).
   * The pipeline awaits it before it asks them.
   */
  prepare?(input: Input): Promise<void>;
  isConcurrencySafe(input: Input): boolean;
  isReadOnly(input: Input): boolean;
  isDestructive(input: Input): boolean;
  isOpenWorld?(input: Input): boolean;
  interruptBehavior(): "cancel" | "block";
  userFacingName(input: Input | undefined): string;
  toAutoClassifierInput(input: Input): unknown;
  inputsEquivalent?(a: Input, b: Input): boolean;
  mapToolResultToToolResultBlockParam(output: Output, toolUseId: string): ToolResultBlock;
  renderToolUse?(input: Input): ToolView;
  /**
   * What the call would change, computed without changing anything (an edit's diff): the approval
   * dialog shows it before the person answers. Undefined: the dialog shows renderToolUse.
   */
  renderToolUsePreview?(input: Input, context: ToolUseContext): Promise<ToolView | undefined>;
  renderToolResult?(output: Output, input: Input): ToolView;
  renderToolProgress?(progress: Progress): ToolView;
}

export type Tools = readonly Tool[];

export interface RuleMatchArgs {
  tool: Tool;
  input: unknown;
  context: ToolUseContext;
  permissionContext: ToolPermissionContext;
  rule: PermissionRule;
}

/** A tool family's reading of rule specifiers: paths for Read/Edit, commands for Bash, hosts for WebFetch. */
export interface RuleContentMatcher {
  /** True when the rule's specifier covers this call. `rule.behavior` tells deny matching from allow. */
  matches(args: RuleMatchArgs): boolean | Promise<boolean>;
  /** A reason the specifier is malformed, or undefined when it is fine. */
  validate?(content: string): string | undefined;
}

/** What a tool author writes. Omitted members get the fail-closed defaults below. */
export type ToolDef<Input = unknown, Output = unknown, Progress = unknown> = Omit<
  Tool<Input, Output, Progress>,
  | "isEnabled"
  | "isConcurrencySafe"
  | "isReadOnly"
  | "isDestructive"
  | "checkPermissions"
  | "interruptBehavior"
  | "userFacingName"
  | "toAutoClassifierInput"
  | "mapToolResultToToolResultBlockParam"
> & {
  isEnabled?: () => boolean;
  isConcurrencySafe?: Flag<Input>;
  isReadOnly?: Flag<Input>;
  isDestructive?: Flag<Input>;
  checkPermissions?: Tool<Input, Output, Progress>["checkPermissions"];
  interruptBehavior?: () => "cancel" | "block";
  userFacingName?: (input: Input | undefined) => string;
  toAutoClassifierInput?: (input: Input) => unknown;
  mapToolResultToToolResultBlockParam?: (output: Output, toolUseId: string) => ToolResultBlock;
};

/**
 * The defaults are fail-closed: not parallel-safe, not read-only, and a permission check that only
 * says "no objection from the tool" (passthrough): the general engine still decides, and with no rule
 * allowing the call, that means ask.
 */
export const TOOL_DEFAULTS = {
  isEnabled: () => true,
  isConcurrencySafe: () => false,
  isReadOnly: () => false,
  isDestructive: () => false,
  checkPermissions: async <Input>(input: Input): Promise<PermissionResult<Input>> => ({
    behavior: "passthrough",
    updatedInput: input,
  }),
  interruptBehavior: () => "block" as const,
  toAutoClassifierInput: () => "",
} as const;

/**
 * checkPermissions for a tool whose calls need no approval of their own, with the reason the audit
 * shows. Deny and ask rules still apply: the engine looks at them first.
 */
export function allowedByTool(reason: string) {
  return async <Input>(input: Input): Promise<PermissionResult<Input>> => ({
    behavior: "allow",
    updatedInput: input,
    decisionReason: { type: "tool", reason },
  });
}

/** Text outputs become text; anything else is shown to the model as JSON. */
export function defaultMapToolResult(output: unknown, toolUseId: string): ToolResultBlock {
  const content =
    typeof output === "string" ? output : output === undefined ? "" : JSON.stringify(output, null, 2);
  return { type: "tool_result", tool_use_id: toolUseId, content };
}

const REQUIRED_MEMBERS = ["name", "call", "description", "prompt", "maxResultSizeChars"] as const;
const TOOL_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,127}$/;

function asFlag<Input>(
  flag: Flag<Input> | undefined,
  fallback: (input: Input) => boolean,
): (input: Input) => boolean {
  if (flag === undefined) return fallback;
  if (typeof flag === "boolean") return () => flag;
  return flag;
}

function checkDefinition<Input, Output, Progress>(def: ToolDef<Input, Output, Progress>): void {
  const name = typeof def?.name === "string" ? def.name : "<unnamed>";
  if (def === null || typeof def !== "object")
    throw new ToolDefinitionError(name, "the definition is not an object");
  for (const member of REQUIRED_MEMBERS) {
    if ((def as Record<string, unknown>)[member] === undefined)
      throw new ToolDefinitionError(name, `missing required member "${member}"`);
  }
  if (!TOOL_NAME.test(def.name))
    throw new ToolDefinitionError(
      name,
      "name must start with a letter and use only letters, digits, _ and -",
    );
  if (def.inputSchema === undefined)
    throw new ToolDefinitionError(name, 'missing required member "inputSchema"');
  for (const member of ["call", "description", "prompt"] as const) {
    if (typeof def[member] !== "function")
      throw new ToolDefinitionError(name, `"${member}" must be a function`);
  }
  if (typeof def.maxResultSizeChars !== "number" || !(def.maxResultSizeChars > 0))
    throw new ToolDefinitionError(
      name,
      "maxResultSizeChars must be a positive number (Infinity: never persisted)",
    );
  if (def.isReadOnly === true && def.isDestructive === true)
    throw new ToolDefinitionError(name, "declared both read-only and destructive; a tool cannot be both");
  if (def.aliases?.includes(def.name))
    throw new ToolDefinitionError(name, "an alias repeats the tool's name");
}

/** Builds a tool from its definition: defaults spread under it, checked now rather than at call time. */
export function buildTool<Input, Output = unknown, Progress = unknown>(
  def: ToolDef<Input, Output, Progress>,
): Tool<Input, Output, Progress> {
  checkDefinition(def);
  const isReadOnly = asFlag(def.isReadOnly, TOOL_DEFAULTS.isReadOnly);
  const isDestructive = asFlag(def.isDestructive, TOOL_DEFAULTS.isDestructive);
  const tool: Tool<Input, Output, Progress> = {
    ...def,
    isEnabled: def.isEnabled ?? TOOL_DEFAULTS.isEnabled,
    isConcurrencySafe: asFlag(def.isConcurrencySafe, TOOL_DEFAULTS.isConcurrencySafe),
    isReadOnly,
    isDestructive,
    checkPermissions: def.checkPermissions ?? TOOL_DEFAULTS.checkPermissions,
    interruptBehavior: def.interruptBehavior ?? TOOL_DEFAULTS.interruptBehavior,
    userFacingName: def.userFacingName ?? (() => def.name),
    toAutoClassifierInput: def.toAutoClassifierInput ?? TOOL_DEFAULTS.toAutoClassifierInput,
    mapToolResultToToolResultBlockParam:
      def.mapToolResultToToolResultBlockParam ?? ((output, id) => defaultMapToolResult(output, id)),
  };
  return Object.freeze(tool);
}

/** A tool's flags for one input, guarding against a flag function that throws (fail closed). */
export function safeFlag(read: () => boolean, fallback: boolean): boolean {
  try {
    return read();
  } catch {
    return fallback;
  }
}
