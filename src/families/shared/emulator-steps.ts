import type { EmulatorRecords } from '../simulator-shared/emulator-http';

/** A task an emulator keeps: a test's script of the steps its queries show (one a query, the last one kept), and the queries so far. */
export interface ScriptedSteps<S> {
  script?: S[];
  queries?: number;
}

/** The step a query shows: the script's next one (the query counted in the task's record), else the clock's. */
export async function stepOfQuery<S>(
  records: EmulatorRecords,
  kind: string,
  id: string,
  task: ScriptedSteps<S>,
  byClock: () => NoInfer<S>,
): Promise<S> {
  if (!task.script) return byClock();
  const queries = task.queries ?? 0;
  await records.update(kind, id, { ...task, queries: queries + 1 });
  return task.script[Math.min(queries, task.script.length - 1)];
}

/** Where a task is now, without counting a query (what a download or a cancel decides on): the step the last query showed, else the clock's. */
export function stepNow<S>(task: ScriptedSteps<S>, byClock: () => NoInfer<S>): S {
  const { script, queries = 0 } = task;
  return script ? script[Math.min(Math.max(queries - 1, 0), script.length - 1)] : byClock();
}
