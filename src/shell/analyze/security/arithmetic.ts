// Arithmetic evaluates array subscripts, and a subscript can hold $(...): a[$(cmd)] runs cmd.
import type { SyntaxCheck } from "./types.ts";

export const arithmetic: SyntaxCheck = {
  id: "arithmetic",
  stage: "syntax",
  description: "$((...)), ((...)) and $[...] evaluate expressions whose subscripts can run commands",
  run: (tree) =>
    ["arithmetic_expansion", "((", "$(("].some((type) => tree.of(type).length > 0)
      ? "arithmetic expansion is evaluated at run time (subscripts inside it can run commands)"
      : undefined,
  examples: {
    trigger: ["echo $((1+2))", "((x=a[$(id)]))", "echo $[1+2]", "ls $((2*3))"],
    pass: ["echo 1+2", "echo '$((1+2))'", "expr 1 + 2"],
  },
};
