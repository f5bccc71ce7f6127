import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery } from '@nestjs/swagger';
import { AdminApi } from '../auth/admin-api.decorator';
import { type BuiltinEntry, type CatalogEntry, namesOf } from '../catalog/catalog-entry';
import { CatalogChanges } from '../catalog/catalog-entry-diff';
import { CatalogEntryDto, CatalogFileDto, UpdateCatalogEntryDto } from '../catalog/catalog-entry.dto';
import { CatalogService } from '../catalog/catalog.service';
import { CatalogFeedService } from '../catalog-feed/catalog-feed.service';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { entryFromInput, inputOf, patchedInput } from '../families/catalog-entry-input';
import { assertExportFits, assertNamesFree, catalogFileOf, entriesOfFile } from '../families/catalog-file';
import { FamilyRegistry } from '../families/family-registry';
import { TaskQueries } from '../tasks/task-queries.service';
import { CatalogFeedStatusDto, feedStatusOf } from './dto/admin-catalog-feed.dto';
import { AdminModelQueryDto } from './dto/admin-model-query.dto';

/** An entry as the admin API shows it: the fields it takes, and where it came from. */
export const toAdminModelView = (entry: CatalogEntry) => ({ ...inputOf(entry), source: entry.source, modified: entry.modified });

@AdminApi('api/admin/models')
export class AdminModelsController {
  constructor(
    private readonly catalog: CatalogService,
    private readonly families: FamilyRegistry,
    private readonly tasks: TaskQueries,
    private readonly feed: CatalogFeedService,
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
  @ApiOperation({ summary: 'The whole catalog as a file POST /api/admin/models/import takes (at most 16 MB: writes past it are refused)' })
  async export() {
    const { entries } = await this.catalog.snapshot();
    return catalogFileOf(entries);
  }

  @Get('feed')
  @ApiOperation({
    summary:
      'The catalog feed (CATALOG_FEED_URL): its URL, the last good read, the ETag, the last error and what the last good read changed',
  })
  @ApiOkResponse({ type: CatalogFeedStatusDto })
  async feedStatus(): Promise<CatalogFeedStatusDto> {
    return feedStatusOf(await this.feed.state());
  }

  @Post('feed/refresh')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Read the catalog feed now (If-None-Match: a 304 changes nothing) and merge it as a release is merged; a bad document changes nothing and the answer says why (409 without CATALOG_FEED_URL)',
  })
  @ApiOkResponse({ type: CatalogFeedStatusDto })
  async refreshFeed(): Promise<CatalogFeedStatusDto> {
    if (!this.feed.configured) throw new AppError(ErrorCode.Conflict, 'no catalog feed is configured (set CATALOG_FEED_URL)');
    return feedStatusOf(await this.feed.refresh());
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
    await this.assertFits(entry);
    return toAdminModelView(await this.catalog.create(entry));
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Change an entry; `null` clears an optional field. A builtin entry changed here is kept by later releases' })
  async update(@Param('id') id: string, @Body() body: UpdateCatalogEntryDto) {
    const stored = await this.catalog.get(id);
    const entry = entryFromInput(patchedInput(stored, body), this.families.all(), await this.existing());
    await this.assertFits(entry);
    return toAdminModelView(await this.catalog.replace(stored, entry));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({
    summary:
      "Delete a custom model no task used and no entry names as its replacement; otherwise 409 (retire it, or change the other's replacement)",
  })
  async remove(@Param('id') id: string): Promise<void> {
    const entry = await this.catalog.get(id);
    if (entry.source !== 'custom')
      throw new AppError(ErrorCode.Conflict, `model ${id} is ${entry.source}: retire it instead (PATCH status "retired")`);
    // A task records the name it was asked by: any of the entry's.
    if (await this.hasTaskOfAny(namesOf(entry)))
      throw new AppError(ErrorCode.Conflict, `model ${id} has tasks: retire it instead (PATCH status "retired")`);
    // An entry naming it as its replacement would point at nothing (and its export would not import).
    const referring = (await this.catalog.snapshot()).entries.filter((other) => other.replacement === entry.id).map((other) => other.id);
    if (referring.length > 0)
      throw new AppError(
        ErrorCode.Conflict,
        `model ${id} is the replacement of ${referring.join(', ')}: change their replacement first (PATCH replacement)`,
      );
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
    const { entries: stored } = await this.catalog.snapshot();
    const entries = entriesOfFile(body.models, this.families.all(), stored, 'catalog');
    return this.catalog.importEntries(entries, dryRun === 'true' || dryRun === '1');
  }

  /** Its names free and the catalog still exportable with it (a 400 or a 409 otherwise, nothing written). */
  private async assertFits(entry: BuiltinEntry): Promise<void> {
    const { entries } = await this.catalog.snapshot();
    assertNamesFree([entry], entries);
    assertExportFits([entry], entries);
  }

  private async hasTaskOfAny(names: readonly string[]): Promise<boolean> {
    for (const name of names) if (await this.tasks.hasTaskOfModel(name)) return true;
    return false;
  }

  private async existing(): Promise<(id: string) => boolean> {
    const { byId } = await this.catalog.snapshot();
    return (id) => byId.has(id);
  }
}
