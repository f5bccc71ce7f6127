import type { Platform } from '../../upstream/channel.entity';
import type { StoredRequest } from '../../upstream/upstream-task';
import type { FamilyDraft, SourceVideo } from '../family';
import { jsonCopy } from './json-copy';
import { videoDraftFields } from './video-draft-fields';

/** What a family's source rules settle a video made from a stored one at: its request, and what it is priced at. */
export interface SourceSettled<R extends StoredRequest> {
  request: R;
  seconds: number;
  resolution: string;
  audio: boolean;
}

/**
 * The draft of an edit or extend of a stored video (a remix, `metadata.source_task_id`): no image to hold,
 * the action and mode the source asked, the source's frame as the task's size, priced as settled.
 */
export function sourceVideoDraft<R extends StoredRequest>(
  platform: Platform,
  model: string,
  prompt: string | undefined,
  source: SourceVideo,
  settled: SourceSettled<R>,
): FamilyDraft<R> {
  return {
    draft: {
      platform,
      ...videoDraftFields(model, prompt ?? '', false),
      action: source.mode === 'video-extend' ? 'videoExtend' : 'videoEdit',
      mode: source.mode,
      request: jsonCopy(settled.request),
      ...(source.size ? { size: source.size } : {}),
      quote: { model, resolution: settled.resolution, seconds: settled.seconds, audio: settled.audio },
    },
  };
}
