// A command name with spaces or tabs in it (from quoting) shows as one thing and runs as another.
import type { CommandCheck } from "./types.ts";

export const commandNameWhitespace: CommandCheck = {
  id: "command-name-whitespace",
  stage: "command",
  description: "command names that contain whitespace or are empty",
  run: (view) => {
    const names = [view.written.simple.argv[0], view.argv[0]].filter(
      (name): name is string => name !== undefined,
    );
    const odd = names.find((name) => name === "" || /\s/.test(name));
    return odd !== undefined
      ? `the command name ${JSON.stringify(odd)} contains whitespace or is empty`
      : undefined;
  },
  examples: {
    trigger: ['"ls\t-la"', "'rm -rf' x", '"" ls', "timeout 5 'rm -rf' x"],
    pass: ["ls -la", "'ls' -la", "echo 'a b'"],
  },
};
