// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the command is bash, where ${...} is literal text
import { beforeAll, describe, expect, it } from "vitest";
import { EXTRA_CASES, loadBashCases, SHARED_CASES_FILE } from "../testing/bashExtraCases.ts";
import { initBashParser, withBashTree } from "./parse.ts";
import { indexTree, parentOf, someNode } from "./tree.ts";

beforeAll(async () => {
  await initBashParser();
});

/** Every node of `type` by a plain walk: what the index must return, in the same order. */
function walkedTexts(command: string, type: string): string[] {
  return withBashTree(command, (root) => {
    const texts: string[] = [];
    someNode(root, (node) => {
      if (node.type === type) texts.push(node.text);
      return false;
    });
    return texts;
  });
}

const COMMAND = "a=$(echo x) ls -la {a,b} \"$HOME\" ${y} | grep -n '#x' && cd src; echo $'\\n' >| out # c";

describe("indexTree", () => {
  // Types the first walk collects, and types only a later request walks for.
  it.each([
    "word",
    "concatenation",
    "comment",
    "brace_expression",
    "expansion",
    "simple_expansion",
    "command_substitution",
    "ansi_c_string",
    ">|",
    "command",
    "pipeline",
    "list",
    "command_name",
    "raw_string",
    "no_such_type",
  ])("of(%s) holds every node of that type in walk order", (type) => {
    const indexed = withBashTree(COMMAND, (root) =>
      indexTree(root, COMMAND)
        .of(type)
        .map((node) => node.text),
    );
    expect(indexed).toEqual(walkedTexts(COMMAND, type));
  });

  it("finds nodes of types outside the first walk", () => {
    const names = withBashTree(COMMAND, (root) => {
      const index = indexTree(root, COMMAND);
      index.of("command_name");
      return index.of("command_name").map((node) => node.text);
    });
    expect(names).toEqual(["echo", "ls", "grep", "cd", "echo"]);
  });
});

describe("parentOf", () => {
  const commands = [
    COMMAND,
    ...EXTRA_CASES.map((c) => c.command),
    ...loadBashCases(SHARED_CASES_FILE).map((c) => c.command),
    "if [ -f a ]; then (( i = 1 )); fi; for x in $(ls); do echo ${x:=y} | tee >(cat) > f; done 2>&1 &",
    "cat <<EOF | grep x\nline $HOME\nEOF\n! ls > out; a[i+1]=2 b=3 env",
    "echo 'unterminated $(",
  ];

  it("is tree-sitter's own parent for every node of every case's command", () => {
    let nodes = 0;
    for (const command of commands) {
      withBashTree(command, (root) => {
        someNode(root, (node) => {
          nodes++;
          const expected = node.parent;
          const found = parentOf(node);
          expect(found?.id, command).toBe(expected?.id);
          expect(found?.type, command).toBe(expected?.type);
          return false;
        });
      });
    }
    expect(nodes).toBeGreaterThan(2_000);
  });

  it("answers for a subtree's nodes and across trees", () => {
    withBashTree("a && b && c", (first) => {
      withBashTree("x | y", (second) => {
        const inner = first.firstNamedChild?.firstNamedChild;
        expect(inner && parentOf(inner)?.id).toBe(first.firstNamedChild?.id);
        const pipeline = second.firstNamedChild;
        expect(pipeline && parentOf(pipeline)?.id).toBe(second.id);
        expect(parentOf(second)).toBeNull();
      });
    });
  });
});
