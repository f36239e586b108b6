// sudo and friends run a command as another user: never without a person saying yes.
import { PRIVILEGE_COMMANDS } from "../programs.ts";
import type { CommandCheck } from "./types.ts";

export const privilegeEscalation: CommandCheck = {
  id: "privilege-escalation",
  stage: "command",
  description: "sudo, su, doas and pkexec run commands with other privileges",
  run: (view) => {
    const name = view.argv[0];
    return name !== undefined && PRIVILEGE_COMMANDS.has(name)
      ? `${name} runs a command with other privileges`
      : undefined;
  },
  examples: {
    trigger: ["sudo ls", "timeout 5 sudo rm x", "doas ls", "su -c 'ls' root", "env FOO=1 sudo ls"],
    pass: ["ls sudo", "echo sudo", "git log --author=sudo"],
  },
};
