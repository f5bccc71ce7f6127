import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery } from '@nestjs/swagger';
import { AdminApi } from '../auth/admin-api.decorator';
import { aliasCollision, type BuiltinEntry, type CatalogEntry, namesOf } from '../catalog/catalog-entry';
import { CatalogChanges } from '../catalog/catalog-entry-diff';
import { CATALOG_FILE_LIMIT_BYTES, CatalogEntryDto, CatalogFileDto, UpdateCatalogEntryDto } from '../catalog/catalog-entry.dto';
import { CatalogService } from '../catalog/catalog.service';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { entryFromInput, inputOf, patchedInput } from '../families/catalog-entry-input';
import { FamilyRegistry } from '../families/family-registry';
import { TaskQueries } from '../tasks/task-queries.service';
import { AdminModelQueryDto } from './dto/admin-model-query.dto';

/** The export file: what POST /api/admin/models/import takes. */
const catalogFileOf = (entries: readonly BuiltinEntry[]) => ({ version: 1, models: entries.map(inputOf) });

/** An entry as the admin API shows it: the fields it takes, and where it came from. */
export const toAdminModelView = (entry: CatalogEntry) => ({ ...inputOf(entry), source: entry.source, modified: entry.modified });

@AdminApi('api/admin/models')
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
  @ApiOperation({ summary: 'The whole catalog as a file POST /api/admin/models/import takes (at most 16 MB: writes past it are refused)' })
  async export() {
    const { entries } = await this.catalog.snapshot();
    return catalogFileOf(entries);
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
    await this.assertNamesFree([entry]);
    await this.assertExportFits([entry]);
    return toAdminModelView(await this.catalog.create(entry));
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Change an entry; `null` clears an optional field. A builtin entry changed here is kept by later releases' })
  async update(@Param('id') id: string, @Body() body: UpdateCatalogEntryDto) {
    const stored = await this.catalog.get(id);
    const entry = entryFromInput(patchedInput(stored, body), this.families.all(), await this.existing());
    await this.assertNamesFree([entry]);
    await this.assertExportFits([entry]);
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
    if (entry.source === 'builtin')
      throw new AppError(ErrorCode.Conflict, `model ${id} is builtin: retire it instead (PATCH status "retired")`);
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
    await this.assertNamesFree(entries, (index) => `models[${index}].`);
    await this.assertExportFits(entries);
    return this.catalog.importEntries(entries, dryRun === 'true' || dryRun === '1');
  }

  /**
   * Each name answers to one entry: an alias (or a new id) that is another entry's id or alias, in
   * the catalog as it would be after the write, is a 400 naming it.
   */
  private async assertNamesFree(incoming: readonly BuiltinEntry[], at = (_index: number) => ''): Promise<void> {
    const { entries } = await this.catalog.snapshot();
    const replaced = new Set(incoming.map((entry) => entry.id));
    const others = [...entries.filter((entry) => !replaced.has(entry.id)), ...incoming];
    incoming.forEach((entry, index) => {
      const taken = aliasCollision(entry, others);
      if (taken === null) return;
      if (taken === entry.id) throw AppError.invalid(`id: ${taken} is another model's alias`, `${at(index)}id`);
      throw AppError.invalid(`aliases: ${taken} is already a model id or alias`, `${at(index)}aliases`);
    });
  }

  /** The catalog with `incoming` written must export within what an import reads: a 409 otherwise, nothing written. */
  private async assertExportFits(incoming: readonly BuiltinEntry[]): Promise<void> {
    const { entries } = await this.catalog.snapshot();
    const replaced = new Set(incoming.map((entry) => entry.id));
    const after = [...entries.filter((entry) => !replaced.has(entry.id)), ...incoming];
    const bytes = Buffer.byteLength(JSON.stringify(catalogFileOf(after)), 'utf8');
    if (bytes > CATALOG_FILE_LIMIT_BYTES)
      throw new AppError(
        ErrorCode.Conflict,
        `the catalog would export ${bytes} bytes, over the ${CATALOG_FILE_LIMIT_BYTES} an import reads: delete or retire models first`,
      );
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
