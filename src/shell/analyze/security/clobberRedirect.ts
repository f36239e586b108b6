// >| forces an overwrite even with noclobber set (and in zsh it is the usual way around the guard).
import type { SyntaxCheck } from "./types.ts";

export const clobberRedirect: SyntaxCheck = {
  id: "clobber-redirect",
  stage: "syntax",
  description: ">| overwrites a file even when the shell is set to refuse overwrites",
  run: (tree) =>
    tree.of(">|").length > 0
      ? "the >| redirect forces an overwrite; use > to a file inside the project instead"
      : undefined,
  examples: {
    trigger: ["echo x >| file.txt", "ls >| out"],
    pass: ["echo x > file.txt", "ls | head", "echo '>|'"],
  },
};
