import type { ToolMeta } from "../../tool/toolMeta.ts";

export const scheduleWakeupToolMeta: ToolMeta = { name: "ScheduleWakeup" };
