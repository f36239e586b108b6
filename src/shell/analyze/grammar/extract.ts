// The syntax tree -> a flat list of simple commands and the operators between them. Only plain
// commands, pipelines and lists are represented; every other construct is reported as a problem.
import type { Node } from "web-tree-sitter";
import type { ExtractedCommand, Extraction, Problem, Redirect } from "./extractedCommand.ts";
import type { SimpleCommand } from "./parse.ts";
import { DYNAMIC_TYPES, decodeWord, literalWord, type Word } from "./words.ts";

const OPERATORS = new Set(["&&", "||", ";", "|", "|&", "&"]);
export const REDIRECT_TYPES = new Set(["file_redirect", "heredoc_redirect", "herestring_redirect"]);

/** Builds extracted commands from syntax nodes; the walks over a tree are extractCommands and everyCommand.ts. */
export class Extractor {
  readonly commands: ExtractedCommand[] = [];
  readonly operators: string[] = [];
  readonly problems: Problem[] = [];
  readonly #source: string;
  #lastCommandEnd = -1;

  constructor(source: string) {
    this.#source = source;
  }

  problem(check: string, reason: string): void {
    this.problems.push({ check, reason });
  }

  /** Statements in sequence; two statements with no operator token between them were split by a newline. */
  sequence(children: Node[]): void {
    let previousWasStatement = false;
    for (const child of children) {
      if (child.type === "comment") continue;
      if (!child.isNamed) {
        if (OPERATORS.has(child.type)) this.operators.push(child.type);
        else
          this.problem("unsupported-operator", `the operator ${JSON.stringify(child.type)} is not supported`);
        previousWasStatement = false;
        continue;
      }
      if (previousWasStatement) {
        this.problem("newline-separator", "commands separated by a newline; join them with ; or && instead");
        this.operators.push(";");
      }
      this.statement(child, false);
      previousWasStatement = true;
    }
  }

  statement(node: Node, pipedInput: boolean): void {
    switch (node.type) {
      case "command":
        this.command(node, [], pipedInput);
        return;
      case "redirected_statement":
        this.redirected(node, pipedInput);
        return;
      case "pipeline":
        this.pipeline(node, pipedInput);
        return;
      case "list":
        this.sequence(node.children.filter((child): child is Node => child !== null));
        return;
      case "negated_command": {
        const inner = node.namedChildren.find((child) => child !== null && child.type !== "comment");
        if (inner?.type === "command") this.command(inner, [], pipedInput);
        else this.problem("compound-statement", `negated ${inner?.type ?? "statement"} is not supported`);
        return;
      }
      case "variable_assignment":
      case "variable_assignments":
      case "declaration_command":
      case "unset_command":
        this.command(node, [], pipedInput);
        return;
      case "test_command":
        if (node.firstChild?.type === "[") {
          this.testCommand(node, [], pipedInput);
          return;
        }
        this.problem("compound-statement", "[[ ... ]] is not supported; use [ ... ] or test");
        return;
      default:
        this.problem(
          "compound-statement",
          `${node.type.replaceAll("_", " ")} is not supported; run plain commands joined by && ; | instead`,
        );
    }
  }

  pipeline(node: Node, pipedInput: boolean): void {
    let first = true;
    for (const child of node.children) {
      if (!child) continue;
      if (!child.isNamed) {
        if (child.type === "|" || child.type === "|&") this.operators.push(child.type);
        else
          this.problem("unsupported-operator", `the operator ${JSON.stringify(child.type)} is not supported`);
        continue;
      }
      if (child.type === "comment") continue;
      this.statement(child, first ? pipedInput : true);
      first = false;
    }
  }

  redirected(node: Node, pipedInput: boolean): void {
    const body = node.childForFieldName("body");
    const redirects = node.children.filter(
      (child): child is Node => child !== null && REDIRECT_TYPES.has(child.type),
    );
    if (!body) {
      this.command(node, [], pipedInput);
      return;
    }
    if (body.type === "list" || body.type === "pipeline") {
      // The grammar hangs `a && b > f` on the list; bash binds the redirect to the last command, b.
      const before = this.commands.length;
      this.statement(body, pipedInput);
      const last = this.commands.at(-1);
      if (this.commands.length > before && last && this.#lastCommandEnd === body.endIndex)
        this.attach(last, redirects);
      else this.problem("compound-statement", "a redirect after a compound statement is not supported");
      this.#lastCommandEnd = node.endIndex;
      return;
    }
    if (body.type === "test_command" && body.firstChild?.type === "[") {
      this.testCommand(body, redirects, pipedInput);
      this.#lastCommandEnd = node.endIndex;
      return;
    }
    if (body.type !== "command" && body.type !== "declaration_command" && body.type !== "unset_command") {
      this.problem("compound-statement", `redirecting a ${body.type.replaceAll("_", " ")} is not supported`);
      return;
    }
    this.command(body, redirects, pipedInput);
    this.#lastCommandEnd = node.endIndex;
  }

  /** `[ ... ]` is the command `[` with the expression's words as arguments, in order. */
  testCommand(node: Node, redirectNodes: Node[], pipedInput: boolean): void {
    const pieces: Array<{ node: Node; word: Word }> = [];
    const flatten = (current: Node): void => {
      if (TEST_EXPRESSIONS.has(current.type)) {
        for (const child of current.children) if (child) flatten(child);
      } else if (current.type !== "comment") {
        const word = current.isNamed ? decodeWord(current, this.#source) : literalWord(current.text);
        pieces.push({ node: current, word });
      }
    };
    for (const child of node.children) if (child) flatten(child);
    // The grammar splits some words at characters it reads as operators (`~/.ssh/x` as `~` and
    // `/.ssh/x`); bash splits only at blanks, so pieces with nothing between them are one word.
    const words: Word[] = [];
    pieces.forEach((piece, i) => {
      const previous = pieces[i - 1];
      if (!previous || previous.node.endIndex !== piece.node.startIndex) {
        words.push(piece.word);
        return;
      }
      const joined = words.pop() as Word;
      words.push({
        ...joined,
        value: joined.value + piece.word.value,
        text: joined.text + piece.word.text,
        dynamic: joined.dynamic || piece.word.dynamic,
        dynamicKinds: [...joined.dynamicKinds, ...piece.word.dynamicKinds],
        quoted: joined.quoted || piece.word.quoted,
        glob: joined.glob || piece.word.glob,
        tilde: joined.tilde || joined.text === "~",
        brace: joined.brace || piece.word.brace,
        unknown: joined.unknown || piece.word.unknown,
      });
    });
    const command: ExtractedCommand = {
      simple: { argv: words.map((word) => word.value), assignments: [], redirects: [], text: node.text },
      words,
      assignments: [],
      redirects: [],
      pipedInput,
    };
    this.#lastCommandEnd = node.endIndex;
    this.commands.push(command);
    this.attach(command, redirectNodes);
  }

  /** The redirects of a statement that is not one command, as a command of no words holding them. */
  redirectsOnly(node: Node): void {
    const redirects = node.children.filter(
      (child): child is Node => child !== null && REDIRECT_TYPES.has(child.type),
    );
    if (redirects.length === 0) return;
    const command: ExtractedCommand = {
      simple: { argv: [], assignments: [], redirects: [], text: node.text },
      words: [],
      assignments: [],
      redirects: [],
      pipedInput: false,
    };
    this.commands.push(command);
    this.attach(command, redirects);
  }

  /** Adds redirects (and the argument words tree-sitter hangs on them) to an extracted command. */
  attach(command: ExtractedCommand, redirectNodes: Node[]): void {
    const words: Array<{ at: number; word: Word }> = [];
    for (const redirect of redirectNodes) this.redirect(redirect, command.redirects, words);
    command.words.push(...words.map((entry) => entry.word));
    command.simple.argv.push(...words.map((entry) => entry.word.value));
    command.simple.redirects = command.redirects.map(simpleRedirect);
  }

  command(node: Node, outerRedirects: Node[], pipedInput: boolean): void {
    const words: Array<{ at: number; word: Word }> = [];
    const assignments: ExtractedCommand["assignments"] = [];
    const redirects: Redirect[] = [];
    const redirectNodes: Node[] = [];
    const declaration = node.type === "declaration_command" || node.type === "unset_command";
    if (node.type === "variable_assignment") this.assignment(node, assignments);
    const children = node.type === "variable_assignment" ? [] : node.children;
    for (const child of children) {
      if (!child || child.type === "comment") continue;
      if (REDIRECT_TYPES.has(child.type)) {
        redirectNodes.push(child);
      } else if (child.type === "variable_assignment") {
        const assignment = this.assignment(child, assignments);
        // `export A=b`: the assignment is also an argument of the builtin.
        if (declaration && assignment) words.push({ at: child.startIndex, word: assignmentWord(assignment) });
      } else if (child.type === "variable_assignments") {
        for (const inner of child.namedChildren) if (inner) this.assignment(inner, assignments);
      } else if (child.type === "command_name") {
        const inner = child.firstChild;
        if (inner) words.push({ at: inner.startIndex, word: decodeWord(inner, this.#source) });
      } else if (child.type === "subshell") {
        this.problem("syntax-error", "a parenthesised group inside a command (zsh glob qualifier?)");
      } else if (child.isNamed || declaration || ["$", "==", "=~"].includes(child.type)) {
        words.push({ at: child.startIndex, word: decodeWord(child, this.#source) });
      }
    }
    for (const redirect of [...redirectNodes, ...outerRedirects]) this.redirect(redirect, redirects, words);
    words.sort((a, b) => a.at - b.at);
    const argvWords = words.map((entry) => entry.word);
    this.#lastCommandEnd = node.endIndex;
    this.commands.push({
      simple: {
        argv: argvWords.map((word) => word.value),
        assignments: assignments.map((assignment) => ({
          name: assignment.name,
          value: assignment.value.value,
        })),
        redirects: redirects.map(simpleRedirect),
        text: node.text,
      },
      words: argvWords,
      assignments,
      redirects,
      pipedInput,
    });
  }

  assignment(
    node: Node,
    into: ExtractedCommand["assignments"],
  ): ExtractedCommand["assignments"][number] | undefined {
    if (node.type !== "variable_assignment") return undefined;
    const name = node.childForFieldName("name");
    const value = node.childForFieldName("value");
    if (name?.type !== "variable_name") {
      this.problem("arithmetic-subscript", "an assignment to an array element evaluates its subscript");
      return undefined;
    }
    if (value && !WORD_TYPES.has(value.type)) {
      this.problem("compound-assignment", `assigning ${value.type.replaceAll("_", " ")} is not supported`);
      return undefined;
    }
    const append = node.children.some((child) => child?.type === "+=");
    const assignment = {
      name: name.text,
      value: value ? decodeWord(value, this.#source) : literalWord(""),
      append,
    };
    into.push(assignment);
    return assignment;
  }

  redirect(node: Node, into: Redirect[], words: Array<{ at: number; word: Word }>): void {
    const descriptor = node.childForFieldName("descriptor");
    const fd = descriptor ? Number(descriptor.text) : undefined;
    const withFd = fd === undefined || Number.isNaN(fd) ? {} : { fd };
    if (node.type === "herestring_redirect") {
      const value = node.namedChildren.find((child) => child !== null && child.type !== "file_descriptor");
      into.push({ op: "<<<", ...(value ? { target: decodeWord(value, this.#source) } : {}), ...withFd });
      return;
    }
    if (node.type === "heredoc_redirect") {
      this.heredoc(node, into, words, withFd);
      return;
    }
    const destinations = node.childrenForFieldName("destination");
    const [target, ...extra] = destinations;
    // The operator as written between the descriptor and the target: the grammar reads `1<>f` as `<`
    // plus an error, where bash opens f for reading and writing.
    const written = this.#source
      .slice(descriptor?.endIndex ?? node.startIndex, target?.startIndex ?? node.endIndex)
      .replace(/\s+/g, "");
    const token = node.children.find((child) => child !== null && !child.isNamed)?.type ?? "";
    const op = written.includes("<>") ? "<>" : token;
    // tree-sitter attaches words after the target (`ls > f -la`) to the redirect; bash passes them as arguments.
    for (const word of extra) words.push({ at: word.startIndex, word: decodeWord(word, this.#source) });
    into.push({ op, ...(target ? { target: decodeWord(target, this.#source) } : {}), ...withFd });
  }

  heredoc(
    node: Node,
    into: Redirect[],
    words: Array<{ at: number; word: Word }>,
    withFd: { fd?: number },
  ): void {
    let start = "";
    let body: Node | undefined;
    for (const child of node.children) {
      if (!child) continue;
      if (child.type === "heredoc_start") start = child.text;
      else if (child.type === "heredoc_body") body = child;
      else if (child.type === "file_redirect" || child.type === "herestring_redirect")
        this.redirect(child, into, words);
      else if (child.type === "<<" || child.type === "<<-" || child.type === "heredoc_end") continue;
      else
        this.problem(
          "heredoc-compound",
          "commands after a heredoc operator on the same line are not supported",
        );
    }
    const op = node.children.find((child) => child?.type === "<<-") ? "<<-" : "<<";
    const quoted = /['"\\]/.test(start);
    const dynamic =
      body?.namedChildren.some((child) => child !== null && child.type !== "heredoc_content") ?? false;
    into.push({
      op,
      target: { ...literalWord(start.replace(/['"\\]/g, "")), text: start },
      ...withFd,
      heredoc: { body: body?.text ?? "", quoted, dynamic },
    });
  }
}

function simpleRedirect(redirect: Redirect): SimpleCommand["redirects"][number] {
  return {
    op: redirect.op,
    target: redirect.target?.value ?? "",
    ...(redirect.fd === undefined ? {} : { fd: redirect.fd }),
  };
}

const TEST_EXPRESSIONS = new Set(["unary_expression", "binary_expression", "parenthesized_expression"]);

/** Node types an assignment's value may be: a word, written out or computed when the line runs. */
const WORD_TYPES = new Set([
  "word",
  "number",
  "string",
  "raw_string",
  "ansi_c_string",
  "translated_string",
  "concatenation",
  ...DYNAMIC_TYPES,
]);

function assignmentWord(assignment: ExtractedCommand["assignments"][number]): Word {
  const { value } = assignment;
  const prefix = `${assignment.name}${assignment.append ? "+=" : "="}`;
  return { ...value, value: prefix + value.value, text: prefix + value.text, tilde: false };
}

/** Walks the statements of a program into simple commands; unsupported syntax becomes problems. */
export function extractCommands(root: Node, source: string): Extraction {
  const extractor = new Extractor(source);
  if (root.hasError) extractor.problem("syntax-error", "the command does not parse as bash");
  extractor.sequence(root.children.filter((child): child is Node => child !== null));
  return { commands: extractor.commands, operators: extractor.operators, problems: extractor.problems };
}
