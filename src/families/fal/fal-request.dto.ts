import { ApiSchema } from '@nestjs/swagger';
import type { RequestExample, SubmitForm } from '../family';
import { HostedVideoRequestDto } from '../shared/hosted-video-request.dto';

/** A fal model's request: the gateway's shared fields, those its route's `input_map` names (HostedVideoRequestDto). */
@ApiSchema({
  name: 'FalVideoRequest',
  description:
    "A model served on fal (`fal-*` builtin, or any fal endpoint an operator added to the catalog): the fields its route's input_map names.",
})
export class FalVideoRequestDto extends HostedVideoRequestDto {}

/** A 1x1 PNG: an example that needs no host the gateway must resolve. */
const FIRST_FRAME =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const examples = (form: SubmitForm): Record<string, RequestExample> => ({
  [`fal-text-${form}`]: {
    summary: 'fal: Kling 2.5 Turbo Pro, text-to-video',
    value: {
      model: 'fal-kling-v2-5-turbo-pro',
      prompt: 'a paper boat drifting down a rainy street',
      ...(form === 'flat' ? { seconds: '5' } : { duration: 5 }),
      aspect_ratio: '16:9',
    },
  },
  [`fal-image-${form}`]: {
    summary: 'fal: Veo 3.1, image-to-video with audio',
    value: { model: 'fal-veo-3-1', prompt: 'slow dolly in', input_reference: FIRST_FRAME, duration: 6, resolution: '720p', audio: true },
  },
});

export const FAL_EXAMPLES: Partial<Record<SubmitForm, Record<string, RequestExample>>> = {
  flat: examples('flat'),
  unified: examples('unified'),
};
