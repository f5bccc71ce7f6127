import { keptNumber, keptText, providerCode } from '../../upstream/provider-text';
import { storedAnswer } from '../shared/stored-answer';
import { FAILURE, failureReason } from '../../upstream/failure-reason';
import { UpstreamError, UpstreamState } from '../../upstream/upstream-adapter';
import { MINIMAX_CODES, minimaxAnswerError, minimaxCode } from './minimax-errors';
import type { MinimaxQueryAnswer } from './minimax-protocol';

const STATES: Readonly<Record<string, UpstreamState>> = {
  preparing: 'queued',
  queueing: 'queued',
  processing: 'running',
  success: 'succeeded',
  fail: 'failed',
};

/** A query read: the state, the file to retrieve once it succeeded, the failure reason, the fields kept. */
export interface MinimaxQueryReading {
  state: UpstreamState;
  fileId?: string;
  outputSize?: string;
  failReason?: string;
  raw: unknown;
}

/**
 * The task query -> the gateway's state (any case of `status`: callbacks are unconfirmed). A `Fail`
 * names its `base_resp` code (1026/1027: content moderation failed); an answer without a status is
 * the `base_resp` error it carries; an unknown status is transient, never an end.
 */
export function readMinimaxQuery(body: unknown): MinimaxQueryReading {
  const answer = (body ?? {}) as MinimaxQueryAnswer;
  const raw = storedMinimaxQuery(body);
  if (typeof answer.status !== 'string')
    throw minimaxAnswerError(body) ?? new UpstreamError('transient', 'the provider answered without a task status');
  const state = STATES[answer.status.toLowerCase()];
  if (!state)
    throw new UpstreamError(
      'transient',
      `unexpected status ${JSON.stringify(providerCode(answer.status) ?? null)} in the provider's answer`,
    );
  if (state === 'failed') return { state, failReason: minimaxFailReason(minimaxCode(body)), raw };
  if (state !== 'succeeded') return { state, raw };
  const fileId = typeof answer.file_id === 'number' ? String(answer.file_id) : answer.file_id;
  if (typeof fileId !== 'string' || !/^\w{1,64}$/.test(fileId))
    return { state: 'failed', failReason: failureReason(FAILURE.generation, 'the provider reported success without a file_id'), raw };
  const [width, height] = [answer.video_width, answer.video_height];
  const outputSize =
    Number.isSafeInteger(width) && Number.isSafeInteger(height) && width! > 0 && height! > 0 ? `${width}x${height}` : undefined;
  return { state, fileId, outputSize, raw };
}

/** `content moderation failed: 1027: ...` for 1026/1027, else `generation failed` with the code. */
export function minimaxFailReason(code: number | undefined): string {
  if (code === undefined || code === 0) return FAILURE.generation;
  const [kind, reason] = MINIMAX_CODES[code] ?? [];
  return failureReason(kind === 'moderation' ? FAILURE.moderation : FAILURE.generation, String(code), reason);
}

/** The documented fields of a query answer: no `status_msg`, a few KB at most. */
export function storedMinimaxQuery(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const answer = body as Record<string, unknown>;
  const code = minimaxCode(body);
  return storedAnswer({
    task_id: keptText(answer.task_id, 64),
    status: keptText(answer.status, 32),
    file_id: keptNumber(answer.file_id) ?? keptText(answer.file_id, 64),
    video_width: keptNumber(answer.video_width),
    video_height: keptNumber(answer.video_height),
    base_resp: code !== undefined ? { status_code: code } : undefined,
  });
}
