import { Module } from '@nestjs/common';
import { UpstreamModule } from '../../upstream/upstream.module';
import { OpenAiDrafts } from './openai-drafts.service';
import { OpenAiInputFiles } from './openai-input-files.service';
import { OpenAiReferenceCheck } from './openai-reference-check.service';
import { OpenAiUpstreamAdapter } from './openai-upstream.adapter';

/** Family O's providers: its request schema (with the staged file parts) and its upstream adapter. */
@Module({
  imports: [UpstreamModule],
  providers: [OpenAiInputFiles, OpenAiReferenceCheck, OpenAiDrafts, OpenAiUpstreamAdapter],
  exports: [OpenAiDrafts, OpenAiUpstreamAdapter],
})
export class OpenAiFamilyModule {}
