// One TaskUpdate applied to the list: checked in full first (move, dependencies), then changed, so a
// refused update leaves the list as it was.
import { ToolError } from "../../tool/errors.ts";
import {
  canMove,
  illegalMoveMessage,
  openBlockers,
  type Task,
  type TaskFile,
  type TaskStatus,
} from "../tasks-shared/taskModel.ts";
import { requireTask } from "../tasks-shared/taskStore.ts";
import { verificationNudge } from "../tasks-shared/verification.ts";

export interface TaskUpdateRequest {
  taskId: string;
  status?: TaskStatus;
  subject?: string;
  description?: string;
  activeForm?: string;
  owner?: string;
  addBlocks?: string[];
  addBlockedBy?: string[];
  /** Keys to set; a null value removes the key. */
  metadata?: Record<string, unknown>;
}

export interface TaskUpdateOutcome {
  task: Task;
  changes: string[];
  notes: string[];
  nudge?: string;
}

/** Owner recorded when a task starts without one named: the sub-agent's id, or the main agent. */
export const MAIN_AGENT_OWNER = "main";

function liveTask(file: TaskFile, id: string, role: string): Task {
  const task = requireTask(file, id);
  if (task.status === "deleted")
    throw new ToolError("wrong_state", `Task #${task.id} was deleted; it cannot be ${role}.`);
  return task;
}

/** Would `from` reach `to` by following "blocks" edges, with `extra` edges added? */
function reaches(file: TaskFile, extra: ReadonlyArray<[string, string]>, from: string, to: string): boolean {
  const edges = new Map<string, string[]>();
  for (const task of file.tasks) edges.set(task.id, [...task.blocks]);
  for (const [a, b] of extra) edges.set(a, [...(edges.get(a) ?? []), b]);
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (id === to) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(edges.get(id) ?? []));
  }
  return false;
}

/** New "a blocks b" edges this update asks for, checked: existing live tasks, no self edge, no cycle. */
function plannedEdges(file: TaskFile, task: Task, request: TaskUpdateRequest): Array<[string, string]> {
  const edges: Array<[string, string]> = [];
  for (const id of request.addBlocks ?? []) edges.push([task.id, liveTask(file, id, "blocked").id]);
  for (const id of request.addBlockedBy ?? []) edges.push([liveTask(file, id, "a blocker").id, task.id]);
  for (const [a, b] of edges) {
    if (a === b) throw new ToolError("invalid_input", `Task #${a} cannot block itself.`);
    if (reaches(file, edges, b, a))
      throw new ToolError(
        "invalid_input",
        `Making #${a} block #${b} would create a cycle (#${b} already leads back to #${a}); no task in a cycle could ever start.`,
      );
  }
  return edges;
}

function addUnique(list: string[], id: string): boolean {
  if (list.includes(id)) return false;
  list.push(id);
  return true;
}

function applyStatus(
  file: TaskFile,
  task: Task,
  to: TaskStatus,
  owner: string,
  outcome: TaskUpdateOutcome,
): void {
  outcome.changes.push(`status ${task.status} -> ${to}`);
  task.status = to;
  if (to === "in_progress") {
    task.owner = owner;
    const blockers = openBlockers(file, task);
    if (blockers.length > 0)
      outcome.notes.push(
        `Task #${task.id} is still blocked by ${blockers.map((id) => `#${id}`).join(", ")}; make sure that work is done first.`,
      );
  }
  if (to === "completed") {
    file.completionCount += 1;
    task.completedSeq = file.completionCount;
    const unblocked = file.tasks.filter(
      (other) =>
        other.status === "pending" &&
        other.blockedBy.includes(task.id) &&
        openBlockers(file, other).length === 0,
    );
    if (unblocked.length > 0)
      outcome.notes.push(`Now unblocked: ${unblocked.map((other) => `#${other.id}`).join(", ")}.`);
  }
  if (to === "deleted") {
    for (const other of file.tasks) {
      other.blocks = other.blocks.filter((id) => id !== task.id);
      other.blockedBy = other.blockedBy.filter((id) => id !== task.id);
    }
  }
}

export function applyTaskUpdate(
  file: TaskFile,
  request: TaskUpdateRequest,
  agentId: string | undefined,
): TaskUpdateOutcome {
  const task = liveTask(file, request.taskId, "changed");
  const move = request.status !== undefined && request.status !== task.status ? request.status : undefined;
  if (move !== undefined && !canMove(task.status, move))
    throw new ToolError("wrong_state", illegalMoveMessage(task.id, task.status, move));
  const edges = plannedEdges(file, task, request);

  const outcome: TaskUpdateOutcome = { task, changes: [], notes: [] };
  for (const field of ["subject", "description", "activeForm"] as const) {
    const value = request[field];
    if (value !== undefined && value !== task[field]) {
      task[field] = value;
      outcome.changes.push(field);
    }
  }
  if (request.owner !== undefined && request.owner !== task.owner) {
    task.owner = request.owner;
    outcome.changes.push(`owner ${request.owner}`);
  }
  if (request.metadata) {
    const metadata = { ...task.metadata };
    for (const [key, value] of Object.entries(request.metadata)) {
      if (value === null) delete metadata[key];
      else metadata[key] = value;
    }
    task.metadata = metadata;
    outcome.changes.push("metadata");
  }
  for (const [a, b] of edges) {
    const blocker = file.tasks.find((t) => t.id === a)!;
    const blocked = file.tasks.find((t) => t.id === b)!;
    const added = addUnique(blocker.blocks, b);
    addUnique(blocked.blockedBy, a);
    if (added) outcome.changes.push(`#${a} blocks #${b}`);
  }
  if (move !== undefined)
    applyStatus(file, task, move, request.owner ?? agentId ?? MAIN_AGENT_OWNER, outcome);
  if (request.status !== undefined && move === undefined)
    outcome.notes.push(`Task #${task.id} was already ${task.status}.`);
  if (outcome.changes.length > 0) task.updatedAt = new Date().toISOString();
  if (move === "completed") {
    const nudge = verificationNudge(file);
    if (nudge) outcome.nudge = nudge;
  }
  return outcome;
}
