import { ApiSchema } from '@nestjs/swagger';
import type { RequestExample, SubmitForm } from '../family';
import { HostedVideoRequestDto } from '../shared/hosted-video-request.dto';

/** A Replicate model's request: the gateway's shared fields, those its route's `input_map` names (HostedVideoRequestDto). */
@ApiSchema({
  name: 'ReplicateVideoRequest',
  description:
    "A model served on Replicate (`replicate-*` builtin, or any Replicate model an operator added to the catalog): the fields its route's input_map names.",
})
export class ReplicateVideoRequestDto extends HostedVideoRequestDto {}

/** A 1x1 PNG: an example that needs no host the gateway must resolve. */
const FIRST_FRAME =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const examples = (form: SubmitForm): Record<string, RequestExample> => ({
  [`replicate-text-${form}`]: {
    summary: 'Replicate: Kling 2.5 Turbo Pro, text-to-video',
    value: {
      model: 'replicate-kling-v2-5-turbo-pro',
      prompt: 'a lighthouse at dusk, waves below',
      ...(form === 'flat' ? { seconds: '5' } : { duration: 5 }),
      aspect_ratio: '9:16',
    },
  },
  [`replicate-image-${form}`]: {
    summary: 'Replicate: Kling 2.5 Turbo Pro, image-to-video',
    value: { model: 'replicate-kling-v2-5-turbo-pro', prompt: 'the camera pulls back', input_reference: FIRST_FRAME, duration: 10 },
  },
});

export const REPLICATE_EXAMPLES: Partial<Record<SubmitForm, Record<string, RequestExample>>> = {
  flat: examples('flat'),
  unified: examples('unified'),
};
