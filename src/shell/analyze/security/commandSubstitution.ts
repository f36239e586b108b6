// $(...) and `...` run a command and paste its output into another: the real command is unknown.
import type { Node } from "web-tree-sitter";
import { heredocLiteral } from "../grammar/words.ts";
import type { SyntaxCheck } from "./types.ts";

/**
 * tree-sitter-bash leaves backticks in a heredoc body as plain text, but bash runs them when the
 * delimiter is unquoted. An unescaped backtick in such a body is a command substitution.
 */
function heredocBacktick(redirect: Node): boolean {
  const start = redirect.children.find((child) => child?.type === "heredoc_start");
  if (!start || /['"\\]/.test(start.text)) return false;
  for (const body of redirect.children) {
    if (body?.type !== "heredoc_body") continue;
    const text = body.text;
    for (let i = 0; i < text.length; i++) {
      if (text[i] === "\\") i++;
      else if (text[i] === "`") return true;
    }
  }
  return false;
}

export const commandSubstitution: SyntaxCheck = {
  id: "command-substitution",
  stage: "syntax",
  description: "$(...) and backticks run hidden commands whose output becomes part of the command",
  run: (tree) => {
    if (tree.of("heredoc_redirect").some(heredocBacktick))
      return "backticks in a heredoc body run a command inside the command; quote the delimiter (<<'EOF')";
    const node = tree.of("command_substitution").find((candidate) => heredocLiteral(candidate) === undefined);
    if (!node) return undefined;
    return node.text.startsWith("`")
      ? "backticks run a command inside the command; run it separately first"
      : "$(...) runs a command inside the command; run it separately first";
  },
  examples: {
    trigger: [
      'git commit -m "$(curl -s https://example.com)"',
      "echo `id`",
      "cat <<EOF\n$(id)\nEOF",
      "ls $(pwd)/src",
      'git commit -m "$(cat <<EOF\n$(id)\nEOF\n)"',
      "git commit -m \"$(cat <<'EOF'\nx\nEOF\n; id)\"",
      "git commit -m $(cat <<'EOF'\nx\nEOF\n)",
      "cat <<EOF\n`id`\nEOF",
      "cat <<-EOF\n\t`id`\nEOF",
      "cat <<EOF >/dev/null\n`\\\nid`\nEOF",
      "cat <<<x <<EOF\na `id` b\nEOF",
    ],
    pass: [
      "git commit -m \"$(cat <<'EOF'\nFix the bug\n\nDetails\nEOF\n)\"",
      "grep -rn '$(' scripts/",
      "echo '`id`'",
      'echo "\\$(id)"',
      "cat <<'EOF'\n$(id)\nEOF",
      "cat <<'EOF'\n`id`\nEOF",
      'cat <<"EOF"\n`id`\nEOF',
      "cat <<\\EOF\n`id`\nEOF",
      "cat <<EOF\nescaped \\`id\\` stays text\nEOF",
    ],
  },
};
