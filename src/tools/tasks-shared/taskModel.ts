// A task of the session's task list, the file that holds the list, and the moves a task's status may make.
import * as z from "zod";

export const TASK_STATUSES = ["pending", "in_progress", "completed", "deleted"] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** The only moves: pending -> in_progress -> completed | deleted. Completed and deleted are final. */
export const TASK_TRANSITIONS: Readonly<Record<TaskStatus, readonly TaskStatus[]>> = {
  pending: ["in_progress"],
  in_progress: ["completed", "deleted"],
  completed: [],
  deleted: [],
};

export function canMove(from: TaskStatus, to: TaskStatus): boolean {
  return TASK_TRANSITIONS[from].includes(to);
}

/** Why a move is refused, phrased so the model knows what it may do instead. */
export function illegalMoveMessage(id: string, from: TaskStatus, to: TaskStatus): string {
  const allowed = TASK_TRANSITIONS[from];
  const next =
    allowed.length === 0
      ? `a ${from} task is final; create a new task with TaskCreate if more work is needed`
      : `from ${from} it can only move to ${allowed.join(" or ")}`;
  return `Task #${id} cannot move from ${from} to ${to}: ${next}. Task statuses go pending -> in_progress -> completed | deleted.`;
}

const taskSchema = z.object({
  id: z.string(),
  subject: z.string(),
  description: z.string(),
  activeForm: z.string().optional(),
  status: z.enum(TASK_STATUSES),
  owner: z.string().optional(),
  blocks: z.array(z.string()),
  blockedBy: z.array(z.string()),
  metadata: z.record(z.string(), z.unknown()).optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Order of completion within the list (1, 2, ...), for the verification nudge. */
  completedSeq: z.number().optional(),
});
export type Task = z.infer<typeof taskSchema>;

export const taskFileSchema = z.object({
  version: z.literal(1),
  nextId: z.number().int().positive(),
  completionCount: z.number().int().nonnegative(),
  tasks: z.array(taskSchema),
});
export type TaskFile = z.infer<typeof taskFileSchema>;

export function emptyTaskFile(): TaskFile {
  return { version: 1, nextId: 1, completionCount: 0, tasks: [] };
}

/** Blockers that still hold a task back: not completed and not deleted. */
export function openBlockers(file: TaskFile, task: Task): string[] {
  return task.blockedBy.filter((id) => {
    const blocker = file.tasks.find((other) => other.id === id);
    return blocker !== undefined && blocker.status !== "completed" && blocker.status !== "deleted";
  });
}

/** One line per task for lists and notices. */
export function taskLine(file: TaskFile, task: Task): string {
  const owner = task.owner ? ` (owner: ${task.owner})` : "";
  const blockers = openBlockers(file, task);
  const blocked = blockers.length > 0 ? ` [blocked by ${blockers.map((id) => `#${id}`).join(", ")}]` : "";
  return `#${task.id} [${task.status}] ${task.subject}${owner}${blocked}`;
}
