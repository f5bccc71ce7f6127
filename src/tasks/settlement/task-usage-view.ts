import type { SettledAs } from '../../billing/settlement';
import type { TaskEntity } from '../task.entity';
import type { TaskUsage } from '../task-usage';

/** A shape in the catalog's terms: whole seconds, a resolution name, audio. */
interface UsageShape {
  seconds: number;
  resolution: string;
  audio: boolean;
}

/** Money to the millionth of the operator's currency unit. */
const toMoney = (quota: number, quotaPerUnit: number): number => Math.round((quota / quotaPerUnit) * 1e6) / 1e6;

/** The usage a task was settled at: `shape` (what was delivered, or asked), what its owner paid in the end. */
export function taskUsageOf(
  task: Pick<TaskEntity, 'finalQuota'>,
  shape: UsageShape | null,
  settled: SettledAs,
  quotaPerUnit: number,
): TaskUsage {
  const quota = task.finalQuota ?? 0;
  return {
    seconds: shape?.seconds ?? 0,
    resolution: shape?.resolution ?? null,
    audio: shape?.audio ?? false,
    quota,
    usd: toMoney(quota, quotaPerUnit),
    settled,
  };
}

/**
 * `usage` as an answer shows it: once the task ended. A settled task's own; a failed one paid
 * nothing; a finished one not settled yet (no stored video to read, or not read yet) as asked.
 */
export function usageForAnswer(task: TaskEntity, quotaPerUnit: number): TaskUsage | undefined {
  if (task.usage) return task.usage;
  if (task.status === 'FAILURE' || task.status === 'REJECTED') {
    return { seconds: 0, resolution: null, audio: false, quota: 0, usd: 0, settled: 'refunded' };
  }
  if (task.status !== 'SUCCESS') return undefined;
  const asked = task.priceBasis?.asked ?? askedOf(task);
  return taskUsageOf({ finalQuota: task.quota }, asked, 'as_asked', quotaPerUnit);
}

/** What an older task (no price basis) asked, from its stored request. */
function askedOf(task: TaskEntity): UsageShape | null {
  const request = task.request ?? {};
  const seconds = Number(request.seconds ?? request.duration ?? request.durationSeconds);
  const resolution = request.resolution ?? request.quality;
  if (!Number.isFinite(seconds) || seconds <= 0) return null;
  return { seconds, resolution: typeof resolution === 'string' ? resolution.toLowerCase() : '', audio: request.audio === true };
}
