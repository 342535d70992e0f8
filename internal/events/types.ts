// Task events as the shim publishes them (containerd.events.*), decoded and tagged by kind.
import type { Timestamp__Output } from '../api/gen/google/protobuf/Timestamp';
import type { TaskCheckpointed__Output } from '../api/gen/containerd/events/TaskCheckpointed';
import type { TaskCreate__Output } from '../api/gen/containerd/events/TaskCreate';
import type { TaskDelete__Output } from '../api/gen/containerd/events/TaskDelete';
import type { TaskExecAdded__Output } from '../api/gen/containerd/events/TaskExecAdded';
import type { TaskExecStarted__Output } from '../api/gen/containerd/events/TaskExecStarted';
import type { TaskExit__Output } from '../api/gen/containerd/events/TaskExit';
import type { TaskOOM__Output } from '../api/gen/containerd/events/TaskOOM';
import type { TaskPaused__Output } from '../api/gen/containerd/events/TaskPaused';
import type { TaskResumed__Output } from '../api/gen/containerd/events/TaskResumed';

/** Event kind → decoded message; the kind is the message name after "containerd.events.". */
export interface TaskEventMap {
  TaskCreate: TaskCreate__Output;
  TaskStart: { container_id: string; pid: number };
  TaskExit: TaskExit__Output;
  TaskDelete: TaskDelete__Output;
  TaskOOM: TaskOOM__Output;
  TaskExecAdded: TaskExecAdded__Output;
  TaskExecStarted: TaskExecStarted__Output;
  TaskPaused: TaskPaused__Output;
  TaskResumed: TaskResumed__Output;
  TaskCheckpointed: TaskCheckpointed__Output;
}
export type TaskEventKind = keyof TaskEventMap;

export const TASK_EVENT_KINDS: readonly TaskEventKind[] = [
  'TaskCreate',
  'TaskStart',
  'TaskExit',
  'TaskDelete',
  'TaskOOM',
  'TaskExecAdded',
  'TaskExecStarted',
  'TaskPaused',
  'TaskResumed',
  'TaskCheckpointed',
];

interface TaskEventBase {
  /** e.g. "/tasks/exit", as the shim sent it. */
  topic: string;
  namespace: string;
  timestamp: Date;
  /** The container (task) the event is about; exec events name the exec in `event.exec_id`/`event.id`. */
  containerId: string;
}

export type TaskEvent = {
  [K in TaskEventKind]: TaskEventBase & { kind: K; event: TaskEventMap[K] };
}[TaskEventKind];

export type TaskEventOf<K extends TaskEventKind> = Extract<TaskEvent, { kind: K }>;

export function timestampToDate(ts: Timestamp__Output | null | undefined): Date {
  if (!ts) return new Date(0);
  return new Date(Number(ts.seconds) * 1000 + Math.floor(ts.nanos / 1e6));
}

export function dateToTimestamp(date: Date): Timestamp__Output {
  const ms = date.getTime();
  return { seconds: String(Math.floor(ms / 1000)), nanos: (ms % 1000) * 1e6 };
}
