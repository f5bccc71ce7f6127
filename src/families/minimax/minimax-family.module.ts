import { Module } from '@nestjs/common';
import { UpstreamModule } from '../../upstream/upstream.module';
import { MinimaxDrafts } from './minimax-drafts.service';
import { MinimaxInputImages } from './minimax-input-images.service';
import { MinimaxUpstreamAdapter } from './minimax-upstream.adapter';

/** MiniMax Hailuo's providers: its request schema (with the held images) and its upstream adapter. */
@Module({
  imports: [UpstreamModule],
  providers: [MinimaxInputImages, MinimaxDrafts, MinimaxUpstreamAdapter],
  exports: [MinimaxDrafts, MinimaxUpstreamAdapter],
})
export class MinimaxFamilyModule {}
