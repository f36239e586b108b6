// Every security check, in the order they run within each stage (specific tricks before generic ones).
import { ansiC } from "./ansiC.ts";
import { arithmetic } from "./arithmetic.ts";
import { arithmeticSubscript } from "./arithmeticSubscript.ts";
import { awkCode } from "./awkCode.ts";
import { braceExpansion } from "./braceExpansion.ts";
import { clobberRedirect } from "./clobberRedirect.ts";
import { codeExecution } from "./codeExecution.ts";
import { commandNameWhitespace } from "./commandNameWhitespace.ts";
import { commandSubstitution } from "./commandSubstitution.ts";
import { controlCharacters } from "./controlCharacters.ts";
import { dangerousRemoval } from "./dangerousRemoval.ts";
import { devTcp } from "./devTcp.ts";
import { envSteering } from "./envSteering.ts";
import { escapedOperator } from "./escapedOperator.ts";
import { findExec } from "./findExec.ts";
import { gitDangerous } from "./gitDangerous.ts";
import { heredocEnd } from "./heredocEnd.ts";
import { ifs } from "./ifs.ts";
import { interpreterCode } from "./interpreterCode.ts";
import { lineContinuation } from "./lineContinuation.ts";
import { midWordHash } from "./midWordHash.ts";
import { parameterExpansion } from "./parameterExpansion.ts";
import { parameterTransform } from "./parameterTransform.ts";
import { privilegeEscalation } from "./privilegeEscalation.ts";
import { procEnviron } from "./procEnviron.ts";
import { processSubstitution } from "./processSubstitution.ts";
import { programOptions } from "./programOptions.ts";
import { sedCommands } from "./sedCommands.ts";
import { systemDestruction } from "./systemDestruction.ts";
import { tooLong } from "./tooLong.ts";
import type { CommandCheck, SecurityCheck, SyntaxCheck, TextCheck } from "./types.ts";
import { unicodeWhitespace } from "./unicodeWhitespace.ts";
import { wrapperOptions } from "./wrapperOptions.ts";
import { xargsTarget } from "./xargsTarget.ts";
import { zshBuiltins } from "./zshBuiltins.ts";
import { zshEquals } from "./zshEquals.ts";

export const TEXT_CHECKS: readonly TextCheck[] = [tooLong, controlCharacters, unicodeWhitespace];

export const SYNTAX_CHECKS: readonly SyntaxCheck[] = [
  heredocEnd,
  lineContinuation,
  parameterTransform,
  ifs,
  commandSubstitution,
  processSubstitution,
  arithmetic,
  ansiC,
  zshEquals,
  braceExpansion,
  clobberRedirect,
  escapedOperator,
  midWordHash,
  parameterExpansion,
];

export const COMMAND_CHECKS: readonly CommandCheck[] = [
  dangerousRemoval,
  systemDestruction,
  commandNameWhitespace,
  privilegeEscalation,
  codeExecution,
  envSteering,
  arithmeticSubscript,
  interpreterCode,
  awkCode,
  sedCommands,
  findExec,
  xargsTarget,
  gitDangerous,
  programOptions,
  zshBuiltins,
  devTcp,
  procEnviron,
  wrapperOptions,
];

export const ALL_CHECKS: readonly SecurityCheck[] = [...TEXT_CHECKS, ...SYNTAX_CHECKS, ...COMMAND_CHECKS];
