import { Body, Controller, Get, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiHeader, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { ApiKeyUnauthorized, ApiSubmitErrors, submitErrorExamples } from '../common/errors/error-examples';
import type { AuthenticatedRequest } from '../auth/authenticated-request';
import { sendDeprecation, sendWarnings, WARNING_HEADER_DOC } from '../common/http/response-warnings';
import type { QuoteDto } from '../videos/dto/model-list.dto';
import { ModelListings } from '../videos/model-listings.service';
import { SignedLinksService } from '../storage/signed-links.service';
import { SourceVideos } from '../storage/source-videos.service';
import { GATEWAY_HOPS_API_HEADER, submitHeadersOf } from '../tasks/submit-headers';
import { SubmitPipeline } from '../tasks/submit-pipeline.service';
import { ApiCancelRoute } from '../tasks/cancel-route-docs';
import { TaskCancelService } from '../tasks/task-cancel.service';
import { TaskQueries } from '../tasks/task-queries.service';
import { familiesOf, familyNames, modelsByFamily } from '../families/family-docs';
import { ApiSubmitBody } from '../families/family-request-docs';
import { GenerationSubmitResponse, WrapperErrorResponse } from './dto/generation-submit-response.dto';
import { UNIFIED_TASK_EXAMPLES, UnifiedTaskResponse } from './dto/unified-task.dto';
import { unifiedSubmitInput } from './unified-submit-input';
import { toUnifiedTaskResponse } from './unified-task.view';

const ERRORS = submitErrorExamples('wrapper', 'beta-1.0-t2v');
const UNIFIED_FAMILIES = familiesOf('unified');

@ApiTags('video generations (unified form)')
@ApiBearerAuth('api-key')
@ApiExtraModels(UnifiedTaskResponse, WrapperErrorResponse)
@UseGuards(ApiKeyGuard)
@Controller('v1/video/generations')
export class GenerationsController {
  constructor(
    private readonly submissions: SubmitPipeline,
    private readonly tasks: TaskQueries,
    private readonly links: SignedLinksService,
    private readonly cancels: TaskCancelService,
    private readonly listings: ModelListings,
    private readonly sources: SourceVideos,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: `Submit a video task: ${familyNames(UNIFIED_FAMILIES, 'or')}`,
    description:
      'Validated before any charge (400 in the wrapper shape, e.g. `prompt is required`, `unknown model: <name>`), against the request ' +
      "schema of the model's family (its defaults and rules are there). " +
      'Media URLs must be public http(s); their format and size are checked by a ranged read before charging. ' +
      "`metadata.source_task_id` makes the task from a completed one of the caller's (its stored video; `metadata.mode` `video-edit` " +
      'by default, or `video-extend`), as `POST /v1/videos/{id}/remix`. ' +
      `The models, by family: ${modelsByFamily(UNIFIED_FAMILIES)}.`,
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: 'The same key and body within 24 hours return the first task, charged once; 1 to 255 characters',
  })
  @ApiHeader(GATEWAY_HOPS_API_HEADER)
  @ApiSubmitBody('unified', "The request schema of the model's family")
  @ApiOkResponse({ type: GenerationSubmitResponse, description: 'Accepted: status `queued`', headers: WARNING_HEADER_DOC })
  @ApiSubmitErrors(WrapperErrorResponse, ERRORS, 'wrapper')
  @ApiKeyUnauthorized(WrapperErrorResponse, 'wrapper', ERRORS)
  async create(@Body() body: unknown, @Req() req: AuthenticatedRequest): Promise<GenerationSubmitResponse> {
    const input = unifiedSubmitInput(body);
    await this.sources.attachNamed(input, { user: req.user!, apiKey: req.apiKey });
    const task = await this.submissions.submit(input, { user: req.user!, apiKey: req.apiKey }, submitHeadersOf(req.headers));
    sendWarnings(req, input.warnings);
    sendDeprecation(req, input.deprecated);
    return GenerationSubmitResponse.of(task);
  }

  @Post('quote')
  @HttpCode(200)
  @ApiOperation({
    summary: 'What the same submit would charge now, from the same code: no charge, no task, no call upstream',
    description: "The submit's own body and its 400s; 402 for a balance or key limit the submit would hit.",
  })
  @ApiSubmitBody('unified', 'The body the submit would take')
  @ApiOkResponse({ description: '`{code: "success", message: "", data: {model, seconds, resolution, audio, quota, usd, detail}}`' })
  @ApiSubmitErrors(WrapperErrorResponse, ERRORS, 'wrapper')
  async quote(@Body() body: unknown, @Req() req: AuthenticatedRequest): Promise<{ code: string; message: string; data: QuoteDto }> {
    const input = unifiedSubmitInput(body);
    await this.sources.attachNamed(input, { user: req.user!, apiKey: req.apiKey });
    const quote = await this.submissions.quote(input, { user: req.user!, apiKey: req.apiKey });
    sendDeprecation(req, input.deprecated);
    return { code: 'success', message: '', data: this.listings.quoteView(quote) };
  }

  @Get(':task_id')
  @ApiOperation({ summary: 'A task in the unified form (any platform); FAILURE still answers code `success`' })
  @ApiOkResponse({ type: UnifiedTaskResponse, examples: UNIFIED_TASK_EXAMPLES })
  @ApiNotFoundResponse({ type: WrapperErrorResponse, description: "Unknown task, or another account's task", example: ERRORS[404] })
  async get(@Param('task_id') taskId: string, @Req() req: AuthenticatedRequest): Promise<UnifiedTaskResponse> {
    return toUnifiedTaskResponse(await this.tasks.findOwned(req.user!.id, taskId), this.links);
  }

  @Post(':task_id/cancel')
  // Here, not only inside ApiCancelRoute: the Swagger build plugin reads a POST's status from the method's own decorators.
  @HttpCode(200)
  @ApiCancelRoute({
    surface: 'wrapper',
    summary: 'Cancel a task: it ends FAILURE (`fail_reason` `cancelled by the client`) and its charge is refunded in full',
    okType: UnifiedTaskResponse,
    okDescription: 'The cancelled task (status `FAILURE`)',
    errorType: WrapperErrorResponse,
    endedStatus: 'SUCCESS',
    notFoundExample: ERRORS[404],
  })
  async cancel(@Param('task_id') taskId: string, @Req() req: AuthenticatedRequest): Promise<UnifiedTaskResponse> {
    return toUnifiedTaskResponse(await this.cancels.cancel(req.user!.id, taskId, (status) => status), this.links);
  }
}
