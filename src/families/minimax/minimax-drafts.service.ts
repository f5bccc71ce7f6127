import { Injectable } from '@nestjs/common';
import { validBody } from '../../common/http/validation';
import type { CatalogModel, FamilyDraft, FamilyDrafts, SubmitInput } from '../family';
import { videoDraftFields } from '../shared/video-draft-fields';
import { MinimaxInputImages } from './minimax-input-images.service';
import type { MinimaxImage, MinimaxTaskRequest } from './minimax-protocol';
import { MinimaxVideoRequestDto } from './minimax-request.dto';
import { minimaxModelOf, parseMinimaxBody } from './minimax-rules';

/**
 * A MiniMax body (either form) -> a task draft: the schema, the model's rules (read from its
 * catalog entry; the route's API, v1 or v2, decides the shape), the images
 * (checked URLs, or held bytes); priced at its resolution per second. Nothing is charged before it returns.
 */
@Injectable()
export class MinimaxDrafts implements FamilyDrafts<MinimaxTaskRequest> {
  constructor(private readonly images: MinimaxInputImages) {}

  async prepare(model: string, input: SubmitInput, _caller: unknown, catalog: CatalogModel): Promise<FamilyDraft<MinimaxTaskRequest>> {
    const body = await validBody(MinimaxVideoRequestDto, input.body);
    const minimax = minimaxModelOf(catalog);
    const parsed = parseMinimaxBody(body, model, minimax, input.inputReferenceFile !== undefined);
    const releases: Array<() => void> = [];
    const release = () => releases.forEach((release) => release());
    try {
      const take = ({ image, release }: { image: MinimaxImage; release?: () => void }) => (release && releases.push(release), image);
      const firstFrame = input.inputReferenceFile
        ? take(this.images.fromBytes(input.inputReferenceFile.buffer, 'input_reference'))
        : parsed.firstFrame && take(await this.images.fromField(parsed.firstFrame.value, parsed.firstFrame.field));
      const lastFrame = parsed.lastFrame && take(await this.images.fromField(parsed.lastFrame.value, parsed.lastFrame.field));
      const request: MinimaxTaskRequest = {
        ...(minimax.api === 'v2' ? { api: 'v2' as const } : {}),
        prompt: parsed.prompt,
        duration: parsed.duration,
        resolution: parsed.resolution,
        ...(parsed.ratio !== undefined ? { ratio: parsed.ratio } : {}),
        ...(firstFrame ? { firstFrame } : {}),
        ...(lastFrame ? { lastFrame } : {}),
        metadata: parsed.metadata,
      };
      return {
        draft: {
          platform: 'minimax',
          ...videoDraftFields(model, parsed.prompt, firstFrame !== undefined),
          mode: parsed.mode,
          request,
          // A model that always makes sound (MiniMax-H3) is priced at its audio tier.
          quote: { model, resolution: parsed.resolution.toLowerCase(), seconds: parsed.duration, audio: catalog.entry.audio === 'always' },
        },
        release,
      };
    } catch (error) {
      release();
      throw error;
    }
  }
}
