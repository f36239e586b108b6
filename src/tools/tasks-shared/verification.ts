// The verification nudge: after three tasks are completed with no verification step done or planned,
// the model is reminded to check its work before going on.
import type { Task, TaskFile } from "./taskModel.ts";

export const UNVERIFIED_TASKS_BEFORE_NUDGE = 3;

const VERIFICATION_WORDS = /\b(verif\w*|tests?|testing|check\w*|validat\w*|qa)\b/i;

/** A task (or todo) whose text says it verifies something: run tests, check, validate. */
export function isVerificationText(text: string): boolean {
  return VERIFICATION_WORDS.test(text);
}

export function isVerificationTask(task: Pick<Task, "subject" | "description">): boolean {
  return isVerificationText(task.subject) || isVerificationText(task.description);
}

/** Completed tasks since the last completed verification task, in completion order. */
export function unverifiedCompletedTasks(file: TaskFile): Task[] {
  const completed = file.tasks
    .filter((task) => task.status === "completed" && task.completedSeq !== undefined)
    .sort((a, b) => (a.completedSeq ?? 0) - (b.completedSeq ?? 0));
  let lastVerification = 0;
  for (const task of completed) if (isVerificationTask(task)) lastVerification = task.completedSeq ?? 0;
  return completed.filter((task) => (task.completedSeq ?? 0) > lastVerification && !isVerificationTask(task));
}

/** The nudge, or undefined when the work so far was verified or a verification task is already planned. */
export function verificationNudge(file: TaskFile): string | undefined {
  const unverified = unverifiedCompletedTasks(file);
  if (unverified.length < UNVERIFIED_TASKS_BEFORE_NUDGE) return undefined;
  const planned = file.tasks.some(
    (task) => (task.status === "pending" || task.status === "in_progress") && isVerificationTask(task),
  );
  if (planned) return undefined;
  const ids = unverified.map((task) => `#${task.id}`).join(", ");
  return `You have completed ${unverified.length} tasks (${ids}) without a verification step. Before going on, verify that work: run the tests, the build or the program and check the result. Track it as a task (e.g. TaskCreate with subject "Verify ...") and complete it when the check passes.`;
}
