import { Module } from '@nestjs/common';
import { GenerationsModule } from '../generations/generations.module';

/** /v1/videos: the flat OpenAI-style surface (family A, and family B via BetaSubmitService), content proxy. */
@Module({
  imports: [GenerationsModule],
})
export class VideosModule {}
