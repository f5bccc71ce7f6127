import { ApiSchema } from '@nestjs/swagger';
import { HostedVideoRequestDto } from '../shared/hosted-video-request.dto';
import { secondsOn, textAndImageExamples } from '../shared/request-examples';
import { EXAMPLE_FRAME } from '../shared/request-fields';

/** A Replicate model's request: the gateway's shared fields, those its route's `input_map` names (HostedVideoRequestDto). */
@ApiSchema({
  name: 'ReplicateVideoRequest',
  description:
    "A model served on Replicate (`replicate-*` builtin, or any Replicate model an operator added to the catalog): the fields its route's input_map names.",
})
export class ReplicateVideoRequestDto extends HostedVideoRequestDto {}

export const REPLICATE_EXAMPLES = textAndImageExamples('replicate', {
  text: (form) => ({
    summary: 'Replicate: Kling 2.5 Turbo Pro, text-to-video',
    value: {
      model: 'replicate-kling-v2-5-turbo-pro',
      prompt: 'a lighthouse at dusk, waves below',
      ...secondsOn(form, 5),
      aspect_ratio: '9:16',
    },
  }),
  image: {
    summary: 'Replicate: Kling 2.5 Turbo Pro, image-to-video',
    value: { model: 'replicate-kling-v2-5-turbo-pro', prompt: 'the camera pulls back', input_reference: EXAMPLE_FRAME, duration: 10 },
  },
});
