import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  Req,
  UploadedFiles,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiConflictResponse,
  ApiGoneResponse,
  ApiConsumes,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { ErrorCode } from '../common/errors/app-error';
import { ApiKeyUnauthorized, ApiSubmitErrors, errorExample, submitErrorExamples } from '../common/errors/error-examples';
import type { AuthenticatedRequest } from '../auth/authenticated-request';
import { isMultipart } from '../common/http/request-body-kind';
import { sendDeprecation, sendWarnings, WARNING_HEADER_DOC } from '../common/http/response-warnings';
import { familiesOf, familyNames, modelsByFamily } from '../families/family-docs';
import { ApiSubmitBody } from '../families/family-request-docs';
import type { UploadedPart } from '../families/family';
import { GATEWAY_HOPS_API_HEADER, submitHeadersOf } from '../tasks/submit-headers';
import { SubmitPipeline } from '../tasks/submit-pipeline.service';
import { ApiCancelRoute } from '../tasks/cancel-route-docs';
import { TaskCancelService } from '../tasks/task-cancel.service';
import { toFlatStatus } from '../tasks/task-status';
import { SignedLinksService } from '../storage/signed-links.service';
import { SourceVideos } from '../storage/source-videos.service';
import { REMIX_EXAMPLES, RemixVideoDto } from './dto/remix-video.dto';
import { OpenAiErrorDto } from './dto/openai-error.dto';
import { modelPageOf } from './dto/model-page-query.dto';
import { DeletedVideoDto, FLAT_VIDEO_EXAMPLES, FlatVideoDto, ListVideosQueryDto, SubmittedVideoDto, VideoListDto } from './dto/video.dto';
import { toFlatVideo, toSubmittedVideo } from './flat-video.view';
import { InputReferenceInterceptor } from './input-reference.interceptor';
import { normalizeSubmitBody } from './submit-body';
import { VideoQueriesService } from './video-queries.service';
import { QuoteDto, VideoModelListDto } from './dto/model-list.dto';
import { ModelListings } from './model-listings.service';

const ERRORS = submitErrorExamples('openai', 'alpha/v6');
const FLAT_FAMILIES = familiesOf('flat');
const SUBMIT_MODELS = `The models, by family: ${modelsByFamily(FLAT_FAMILIES)}.`;
const UNFINISHED = errorExample(
  'openai',
  ErrorCode.Conflict,
  'video task_3Fq9ZkVwX1c2bN8mA7rT5yLp0sDe4HgJ is not finished yet (status: in_progress); only completed or failed videos can be deleted',
);
const NOT_REMIXABLE = errorExample(
  'openai',
  ErrorCode.Conflict,
  'task task_3Fq9ZkVwX1c2bN8mA7rT5yLp0sDe4HgJ is not completed (status: in_progress): only a completed video can be remixed',
);
const SOURCE_GONE = errorExample(
  'openai',
  ErrorCode.VideoExpired,
  'the video of task task_3Fq9ZkVwX1c2bN8mA7rT5yLp0sDe4HgJ is gone: the gateway holds no copy of it',
);

@ApiTags('videos')
@ApiBearerAuth('api-key')
@ApiKeyUnauthorized(OpenAiErrorDto, 'openai', ERRORS)
@UseGuards(ApiKeyGuard)
@Controller('v1/videos')
export class VideosController {
  constructor(
    private readonly submissions: SubmitPipeline,
    private readonly queries: VideoQueriesService,
    private readonly cancels: TaskCancelService,
    private readonly links: SignedLinksService,
    private readonly listings: ModelListings,
    private readonly sources: SourceVideos,
  ) {}

  @Post()
  @HttpCode(200)
  @UseInterceptors(InputReferenceInterceptor)
  @ApiOperation({ summary: `Submit a video task: ${familyNames(FLAT_FAMILIES, 'or')}; JSON or multipart`, description: SUBMIT_MODELS })
  @ApiConsumes('application/json', 'multipart/form-data')
  @ApiSubmitBody(
    'flat',
    "The request schema of the model's family; multipart form fields carry the same fields (numbers as decimal text, `metadata` as JSON text) plus an `input_reference` file part",
  )
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: 'the same key and body within 24 h return the first task, charged once; 1 to 255 characters',
  })
  @ApiHeader(GATEWAY_HOPS_API_HEADER)
  @ApiOkResponse({ type: SubmittedVideoDto, headers: WARNING_HEADER_DOC })
  @ApiSubmitErrors(OpenAiErrorDto, ERRORS, 'openai')
  async create(
    @Body() body: unknown,
    @UploadedFiles() files: { input_reference?: UploadedPart[] } | undefined,
    @Req() req: AuthenticatedRequest,
  ): Promise<SubmittedVideoDto> {
    const submit = normalizeSubmitBody(body, files?.input_reference?.[0], isMultipart(req));
    await this.sources.attachNamed(submit, { user: req.user!, apiKey: req.apiKey });
    const task = await this.submissions.submit(submit, { user: req.user!, apiKey: req.apiKey }, submitHeadersOf(req.headers));
    sendWarnings(req, submit.warnings);
    sendDeprecation(req, submit.deprecated);
    return toSubmittedVideo(task);
  }

  @Post('quote')
  @HttpCode(200)
  @UseInterceptors(InputReferenceInterceptor)
  @ApiOperation({
    summary: 'What the same submit would charge now, from the same code: no charge, no task, no call upstream',
    description: "The submit's own body (JSON or multipart) and its 400s; 402 for a balance or key limit the submit would hit.",
  })
  @ApiConsumes('application/json', 'multipart/form-data')
  @ApiSubmitBody('flat', 'The body the submit would take')
  @ApiOkResponse({ type: QuoteDto })
  @ApiSubmitErrors(OpenAiErrorDto, ERRORS, 'openai')
  async quote(
    @Body() body: unknown,
    @UploadedFiles() files: { input_reference?: UploadedPart[] } | undefined,
    @Req() req: AuthenticatedRequest,
  ): Promise<QuoteDto> {
    const submit = normalizeSubmitBody(body, files?.input_reference?.[0], isMultipart(req));
    await this.sources.attachNamed(submit, { user: req.user!, apiKey: req.apiKey });
    const quote = await this.submissions.quote(submit, { user: req.user!, apiKey: req.apiKey });
    sendDeprecation(req, submit.deprecated);
    return this.listings.quoteView(quote);
  }

  @Get('models')
  @ApiOperation({
    summary:
      "The models the caller's key may use, with their capabilities and the caller's prices (quota and USD); `limit` and `after` page it. " +
      'A model not listed here is an `unknown model: <name>` to this caller',
  })
  @ApiOkResponse({ type: VideoModelListDto })
  @ApiQuery({ name: 'limit', required: false, type: Number, description: 'at most this many models, 1 to 1000 (with `after` alone: 100)' })
  @ApiQuery({
    name: 'after',
    required: false,
    type: String,
    description: "a model id: the models after it, in id order (the previous page's `last_id`)",
  })
  async models(@Req() req: AuthenticatedRequest): Promise<VideoModelListDto> {
    return this.listings.videoModels({ user: req.user!, apiKey: req.apiKey }, await modelPageOf(req.query));
  }

  @Get()
  @ApiOperation({ summary: "The caller's videos, newest first, with cursor paging" })
  @ApiOkResponse({ type: VideoListDto })
  list(@Query() query: ListVideosQueryDto, @Req() req: AuthenticatedRequest): Promise<VideoListDto> {
    return this.queries.list(req.user!.id, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'A video task in the flat form (any family)' })
  @ApiOkResponse({ type: FlatVideoDto, examples: FLAT_VIDEO_EXAMPLES })
  @ApiNotFoundResponse({ type: OpenAiErrorDto, description: "Unknown task, or another account's task", example: ERRORS[404] })
  get(@Param('id') id: string, @Req() req: AuthenticatedRequest): Promise<FlatVideoDto> {
    return this.queries.get(req.user!.id, id);
  }

  @Post(':id/remix')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'A new video from a completed one of the caller\'s (OpenAI\'s remix): edited, or extended with `metadata.mode: "video-extend"`',
    description:
      "The source's copy in the gateway's store is sent to the provider (a signed link of the gateway's own). The new task is made with " +
      "the source's model unless `model` names another, on a route serving the mode (xAI edits and extensions, Runway's video-to-video); " +
      'it is priced by its own seconds and answers the usual submit form; GET shows `remixed_from_video_id`. ' +
      'The same as `POST /v1/videos` or `/v1/video/generations` with `metadata.source_task_id`.',
  })
  @ApiBody({ type: RemixVideoDto, examples: REMIX_EXAMPLES })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: 'the same key and body within 24 h return the first task, charged once; 1 to 255 characters',
  })
  @ApiOkResponse({ type: SubmittedVideoDto, headers: WARNING_HEADER_DOC })
  @ApiSubmitErrors(OpenAiErrorDto, ERRORS, 'openai')
  @ApiNotFoundResponse({ type: OpenAiErrorDto, description: "Unknown task, or another account's task", example: ERRORS[404] })
  @ApiConflictResponse({
    type: OpenAiErrorDto,
    description: 'The source is not completed, or its copy is not stored yet',
    example: NOT_REMIXABLE,
  })
  @ApiGoneResponse({ type: OpenAiErrorDto, description: 'The source video is gone (`video_expired`)', example: SOURCE_GONE })
  async remix(@Param('id') id: string, @Body() body: RemixVideoDto, @Req() req: AuthenticatedRequest): Promise<SubmittedVideoDto> {
    const caller = { user: req.user!, apiKey: req.apiKey };
    const submit = await this.sources.remixInput(caller, id, body);
    const task = await this.submissions.submit(submit, caller, submitHeadersOf(req.headers));
    sendWarnings(req, submit.warnings);
    sendDeprecation(req, submit.deprecated);
    return toSubmittedVideo(task);
  }

  @Post(':id/cancel')
  // Here, not only inside ApiCancelRoute: the Swagger build plugin reads a POST's status from the method's own decorators.
  @HttpCode(200)
  @ApiCancelRoute({
    surface: 'openai',
    summary: 'Cancel a video task: it ends failed (`error.code` `cancelled`) and its charge is refunded in full',
    okType: FlatVideoDto,
    okDescription: 'The cancelled task (status `failed`)',
    errorType: OpenAiErrorDto,
    endedStatus: 'completed',
    notFoundExample: ERRORS[404],
  })
  async cancel(@Param('id') id: string, @Req() req: AuthenticatedRequest): Promise<FlatVideoDto> {
    return toFlatVideo(await this.cancels.cancel(req.user!.id, id, toFlatStatus), this.links);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Forget a completed or failed video' })
  @ApiOkResponse({ type: DeletedVideoDto })
  @ApiNotFoundResponse({ type: OpenAiErrorDto, description: "Unknown task, or another account's task", example: ERRORS[404] })
  @ApiConflictResponse({ type: OpenAiErrorDto, description: 'The task has not finished yet', example: UNFINISHED })
  delete(@Param('id') id: string, @Req() req: AuthenticatedRequest): Promise<DeletedVideoDto> {
    return this.queries.delete(req.user!.id, id);
  }
}
