import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { AdminGuard } from '../auth/admin.guard';
import type { CatalogEntry } from '../catalog/catalog-entry';
import { CatalogChanges } from '../catalog/catalog-entry-diff';
import { CatalogEntryDto, CatalogFileDto, UpdateCatalogEntryDto } from '../catalog/catalog-entry.dto';
import { CatalogService } from '../catalog/catalog.service';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { entryFromInput, inputOf, patchedInput } from '../families/catalog-entry-input';
import { FamilyRegistry } from '../families/family-registry';
import { TaskQueries } from '../tasks/task-queries.service';
import { AdminModelQueryDto } from './dto/admin-model-query.dto';

/** An entry as the admin API shows it: the fields it takes, and where it came from. */
export const toAdminModelView = (entry: CatalogEntry) => ({ ...inputOf(entry), source: entry.source, modified: entry.modified });

@ApiTags('admin')
@ApiBearerAuth('admin')
@UseGuards(AdminGuard)
@Controller('api/admin/models')
export class AdminModelsController {
  constructor(
    private readonly catalog: CatalogService,
    private readonly families: FamilyRegistry,
    private readonly tasks: TaskQueries,
  ) {}

  @Get()
  @ApiOperation({ summary: 'The model catalog: every entry (capabilities, prices, routes, lifecycle), by id' })
  async list(@Query() query: AdminModelQueryDto) {
    const { entries } = await this.catalog.snapshot();
    const data = entries.filter(
      (entry) =>
        (!query.platform || entry.routes.some((route) => route.platform === query.platform)) &&
        (!query.status || entry.status === query.status),
    );
    return { data: data.map(toAdminModelView) };
  }

  @Get('export')
  @ApiOperation({ summary: 'The whole catalog as a file POST /api/admin/models/import takes' })
  async export() {
    const { entries } = await this.catalog.snapshot();
    return { version: 1, models: entries.map(inputOf) };
  }

  @Get(':id')
  @ApiOperation({ summary: 'One entry' })
  async get(@Param('id') id: string) {
    return toAdminModelView(await this.catalog.get(id));
  }

  @Post()
  @ApiOperation({ summary: 'Add a model (a custom entry); a 400 names each bad field, route options included' })
  async create(@Body() body: CatalogEntryDto) {
    const entry = entryFromInput(body, this.families.all(), await this.existing());
    return toAdminModelView(await this.catalog.create(entry));
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Change an entry; `null` clears an optional field. A builtin entry changed here is kept by later releases' })
  async update(@Param('id') id: string, @Body() body: UpdateCatalogEntryDto) {
    const stored = await this.catalog.get(id);
    const entry = entryFromInput(patchedInput(stored, body), this.families.all(), await this.existing());
    return toAdminModelView(await this.catalog.replace(stored, entry));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a custom model no task used; otherwise 409 (retire it instead)' })
  async remove(@Param('id') id: string): Promise<void> {
    const entry = await this.catalog.get(id);
    if (entry.source === 'builtin')
      throw new AppError(ErrorCode.Conflict, `model ${id} is builtin: retire it instead (PATCH status "retired")`);
    if (await this.tasks.hasTaskOfModel(entry.id))
      throw new AppError(ErrorCode.Conflict, `model ${id} has tasks: retire it instead (PATCH status "retired")`);
    await this.catalog.remove(entry.id);
  }

  @Post('import')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Import a catalog file (as export gives): new models are added, changed ones replaced, builtin entries the operator changed kept; with dry_run=true only the diff',
  })
  @ApiQuery({ name: 'dry_run', required: false, type: Boolean })
  @ApiOkResponse({ description: '`{added, changed, unchanged, kept_operator_changes}`: model ids' })
  async import(@Body() body: CatalogFileDto, @Query('dry_run') dryRun?: string): Promise<CatalogChanges> {
    const ids = new Set(body.models.map((model) => model.id));
    if (ids.size !== body.models.length) throw AppError.invalid('models: each id may appear once', 'models');
    const stored = await this.existing();
    const entries = body.models.map((model, index) =>
      entryFromInput(
        model,
        this.families.all(),
        (id) => ids.has(id) || stored(id),
        (field) => `models[${index}].${field}`,
      ),
    );
    return this.catalog.importEntries(entries, dryRun === 'true' || dryRun === '1');
  }

  private async existing(): Promise<(id: string) => boolean> {
    const { byId } = await this.catalog.snapshot();
    return (id) => byId.has(id);
  }
}
