// $(...) and `...` run a command and paste its output into another: the real command is unknown.
import { heredocLiteral } from "../words.ts";
import type { SyntaxCheck } from "./types.ts";

export const commandSubstitution: SyntaxCheck = {
  id: "command-substitution",
  stage: "syntax",
  description: "$(...) and backticks run hidden commands whose output becomes part of the command",
  run: (tree) => {
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
    ],
    pass: [
      "git commit -m \"$(cat <<'EOF'\nFix the bug\n\nDetails\nEOF\n)\"",
      "grep -rn '$(' scripts/",
      "echo '`id`'",
      'echo "\\$(id)"',
      "cat <<'EOF'\n$(id)\nEOF",
    ],
  },
};
