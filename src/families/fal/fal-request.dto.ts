import { ApiSchema } from '@nestjs/swagger';
import { HostedVideoRequestDto } from '../shared/hosted-video-request.dto';
import { secondsOn, textAndImageExamples } from '../shared/request-examples';
import { EXAMPLE_FRAME } from '../shared/request-fields';

/** A fal model's request: the gateway's shared fields, those its route's `input_map` names (HostedVideoRequestDto). */
@ApiSchema({
  name: 'FalVideoRequest',
  description:
    "A model served on fal (`fal-*` builtin, or any fal endpoint an operator added to the catalog): the fields its route's input_map names.",
})
export class FalVideoRequestDto extends HostedVideoRequestDto {}

export const FAL_EXAMPLES = textAndImageExamples('fal', {
  text: (form) => ({
    summary: 'fal: Kling 2.5 Turbo Pro, text-to-video',
    value: {
      model: 'fal-kling-v2-5-turbo-pro',
      prompt: 'a paper boat drifting down a rainy street',
      ...secondsOn(form, 5),
      aspect_ratio: '16:9',
    },
  }),
  image: {
    summary: 'fal: Veo 3.1, image-to-video with audio',
    value: { model: 'fal-veo-3-1', prompt: 'slow dolly in', input_reference: EXAMPLE_FRAME, duration: 6, resolution: '720p', audio: true },
  },
});
