import { ApiKeySpending } from '../../../src/auth/api-key-spending';
import { ApiKeyEntity } from '../../../src/auth/api-key.entity';
import { ApiKeyRepository } from '../../../src/auth/api-key.repository';
import { UserRepository } from '../../../src/auth/user.repository';
import { KeyRefusals } from '../../../src/auth/key-refusals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Injectable, Module, type Provider } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { Test, type TestingModule } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { UserEntity } from '../../../src/auth/user.entity';
import { GroupRatioEntity } from '../../../src/billing/group-ratio.entity';
import { LedgerService } from '../../../src/billing/ledger.service';
import { LogEntity } from '../../../src/billing/log.entity';
import { LogRepository } from '../../../src/billing/log.repository';
import { PriceRepository } from '../../../src/billing/price.repository';
import { PriceRuleEntity } from '../../../src/billing/price-rule.entity';
import { PricingService } from '../../../src/billing/pricing.service';
import type { DefaultPrice } from '../../../src/billing/default-prices';
import { CatalogModelEntity } from '../../../src/catalog/catalog-model.entity';
import { CatalogRepository } from '../../../src/catalog/catalog.repository';
import { CatalogService } from '../../../src/catalog/catalog.service';
import { builtinEntries } from '../../../src/families/shared/builtin-entry';
import { Clock } from '../../../src/common/runtime/clock';
import type { AppConfig } from '../../../src/config/app-config';
import { ConfigModule } from '../../../src/config/config.module';
import { DatabaseModule } from '../../../src/database/database.module';
import { ProviderPushMetrics } from '../../../src/metrics/provider-push-metrics';
import { ProviderCallbackLinks } from '../../../src/tasks/push/provider-callback-links';
import { ProviderReads } from '../../../src/tasks/push/provider-reads';
import { TransactionRunner } from '../../../src/database/transaction-runner';
import type { FamilyDefinition, FamilyDrafts, SubmitInput } from '../../../src/families/family';
import { familyRegistration } from '../../../src/families/family-registry';
import { JobMetrics } from '../../../src/jobs/job-metrics.service';
import { JobContext } from '../../../src/jobs/job-context';
import { JobRunner } from '../../../src/jobs/job-runner.service';
import { MetricsRegistry } from '../../../src/metrics/metrics-registry';
import { TaskMetrics } from '../../../src/tasks/task-metrics.service';
import { TaskLeaseRepository } from '../../../src/tasks/repositories/task-lease.repository';
import { TaskReadRepository } from '../../../src/tasks/repositories/task-read.repository';
import { TaskStateRepository } from '../../../src/tasks/repositories/task-state.repository';
import { TaskStatsRepository } from '../../../src/tasks/repositories/task-stats.repository';
import { TaskSubmitRepository } from '../../../src/tasks/repositories/task-submit.repository';
import { TaskSweepRepository } from '../../../src/tasks/repositories/task-sweep.repository';
import { TaskEntity } from '../../../src/tasks/task.entity';
import { TaskEventEntity } from '../../../src/tasks/task-event.entity';
import type { TaskStatus } from '../../../src/tasks/task-status';
import { TaskTransitionsService } from '../../../src/tasks/task-transitions.service';
import { RouteDrafting } from '../../../src/tasks/route-drafting.service';
import { SubmitPipeline } from '../../../src/tasks/submit-pipeline.service';
import { PendingSubmitWrites } from '../../../src/tasks/pending-submit-writes';
import { ProviderCancel } from '../../../src/tasks/provider-cancel';
import { HandToProvider } from '../../../src/tasks/submit/hand-to-provider';
import { DispatchPlanner } from '../../../src/tasks/dispatch/dispatch-planner.service';
import { SubmitAttempts } from '../../../src/tasks/submit/submit-attempts';
import { SubmitChannelReports } from '../../../src/tasks/submit/submit-channel-reports';
import { SubmitLeases } from '../../../src/tasks/submit/submit-leases';
import { RedisConnection } from '../../../src/shared-state/redis-connection.service';
import { BreakerStates } from '../../../src/upstream/breaker/breaker-states.service';
import { ChannelBreakers } from '../../../src/upstream/breaker/channel-breakers.service';
import { SubmitHold } from '../../../src/tasks/submit/submit-hold';
import { SubmitIdempotency } from '../../../src/tasks/submit/submit-idempotency';
import { SubmitSettlement } from '../../../src/tasks/submit/submit-settlement';
import { TaskSubmitService } from '../../../src/tasks/task-submit.service';
import { TaskSyncService } from '../../../src/tasks/task-sync.service';
import { LateCompletionWatch } from '../../../src/tasks/deadline/late-completion-watch';
import { TaskDeadline } from '../../../src/tasks/deadline/task-deadline';
import { TaskLateWatchRepository } from '../../../src/tasks/repositories/task-late-watch.repository';
import { ProviderRetry } from '../../../src/tasks/retry/provider-retry.service';
import { ChannelRequestCounter } from '../../../src/upstream/channel-request-counter.service';
import { ChannelSecretBox } from '../../../src/upstream/channel-secret-box';
import { ChannelsService } from '../../../src/upstream/channels.service';
import { ChannelUrlCheck } from '../../../src/upstream/channel-url-check';
import { UpstreamCallRecorder } from '../../../src/upstream/upstream-call-recorder.service';
import { TaskEndHooks } from '../../../src/tasks/task-end-hooks';
import { TaskSettlementService } from '../../../src/tasks/settlement/task-settlement.service';
import { TaskCostLookup } from '../../../src/tasks/settlement/task-cost-inputs';
import { TaskSubmitFields } from '../../../src/tasks/task-submit-fields';
import { ChannelEntity } from '../../../src/upstream/channel.entity';
import { ChannelRepository } from '../../../src/upstream/channel.repository';
import { UpstreamCallStatsEntity } from '../../../src/upstream/upstream-call-stats.entity';
import { UpstreamCallStatsRepository } from '../../../src/upstream/upstream-call-stats.repository';
import { ChannelRouter } from '../../../src/upstream/channel-router.service';
import { ChannelSettingTraits } from '../../../src/upstream/channel-setting-traits';
import type { PollOutcome, SubmitOutcome, UpstreamAdapter } from '../../../src/upstream/upstream-adapter';
import { type DatabaseKind, freshDatabase } from '../../support/test-databases';

/** A clock the test moves by hand. */
export class FakeClock extends Clock {
  constructor(public current = 1_700_000_000_000) {
    super();
  }
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

export const FAKE_PLATFORM = 'fake';
export const FAKE_MODEL = 'fake-1';

/** The fake family's upstream: answers what the test scripted, records what it was asked. */
@Injectable()
export class FakeAdapter implements Partial<UpstreamAdapter> {
  submitted: string[] = [];
  polled: string[] = [];
  nextSubmit: SubmitOutcome | Error = { upstreamTaskId: 'up_1' };
  nextPoll: PollOutcome | Error = { state: 'running', raw: {} };
  readonly defaultPollIntervalMs = 1_000;
  readonly expectedDurationMs = 10_000;

  defaultUpstreamModel(publicModel: string): string {
    return `${publicModel}-upstream`;
  }
  /** The channel of each submit, in order. */
  submittedOn: number[] = [];
  /** Per-channel answers (by channel id), before `nextSubmit`. */
  readonly submitOn = new Map<number, SubmitOutcome | Error>();

  /** While set, every submit waits for it before answering (submits under way at once). */
  hold: Promise<unknown> | null = null;

  async submit(task: TaskEntity, channel?: ChannelEntity): Promise<SubmitOutcome> {
    this.submitted.push(task.taskId);
    if (channel) this.submittedOn.push(channel.id);
    if (this.hold) await this.hold;
    const outcome = (channel && this.submitOn.get(channel.id)) ?? this.nextSubmit;
    if (outcome instanceof Error) throw outcome;
    return outcome;
  }
  /** Set by a test: the provider has a cancel (absent, as for most families, it has none). */
  cancel?: (task: TaskEntity) => Promise<void>;

  /** Per-task answers, before `nextPoll`. */
  readonly pollOf = new Map<string, PollOutcome | Error>();

  async poll(task: TaskEntity): Promise<PollOutcome> {
    this.polled.push(task.taskId);
    const outcome = this.pollOf.get(task.taskId) ?? this.nextPoll;
    if (outcome instanceof Error) throw outcome;
    return outcome;
  }
}

@Injectable()
export class FakeDrafts implements FamilyDrafts {
  /** The body's `prompt` is the whole upstream request (so two bodies differ for Idempotency-Key). */
  async prepare(model: string, input: SubmitInput) {
    return {
      draft: {
        platform: FAKE_PLATFORM,
        model,
        action: 'textGenerate',
        request: { prompt: input.body.prompt ?? null },
        quote: { model, resolution: '720p', seconds: 5 },
      },
    } as Awaited<ReturnType<FamilyDrafts['prepare']>>;
  }
}

@Module({ providers: [FakeAdapter, FakeDrafts], exports: [FakeAdapter, FakeDrafts] })
export class FakeFamilyModule {}

const FAKE_PRICES: DefaultPrice[] = [
  { model: FAKE_MODEL, resolution: '720p', unit: 'second', duration: 0, credits: 10, audioCredits: null },
];

/**
 * A family "fake" with one model, per-second prices, its module providing the fake drafts and
 * adapter, and two channel settings of its own: a required `workspace` and a secret `signing_secret`.
 */
export const FAKE_FAMILY: FamilyDefinition = {
  platform: FAKE_PLATFORM,
  label: { en: 'fake (test family)', 'zh-CN': 'fake（测试系）' },
  settings: [
    {
      name: 'workspace',
      type: 'string',
      default: null,
      required: true,
      secret: false,
      max: 64,
      label: { en: 'Workspace', 'zh-CN': '工作区' },
      description: { en: 'The provider workspace.', 'zh-CN': '服务商工作区。' },
    },
    {
      name: 'signing_secret',
      type: 'string',
      default: null,
      required: false,
      secret: true,
      label: { en: 'Signing secret', 'zh-CN': '签名密钥' },
      description: { en: 'Signs each call.', 'zh-CN': '为每次调用签名。' },
    },
    {
      name: 'retries',
      type: 'integer',
      default: 2,
      required: false,
      secret: false,
      min: 0,
      max: 5,
      label: { en: 'Retries', 'zh-CN': '重试次数' },
      description: { en: 'Per call.', 'zh-CN': '每次调用。' },
    },
  ],
  models: [FAKE_MODEL],
  publicModel: (name) => (name.toLowerCase() === FAKE_MODEL ? FAKE_MODEL : null),
  forms: ['unified', 'flat'],
  request: { schema: Object, examples: {} },
  defaultPrices: FAKE_PRICES,
  builtinEntries: builtinEntries(
    FAKE_PLATFORM,
    [
      {
        id: FAKE_MODEL,
        modes: ['text-to-video'],
        durations: [5, 10],
        defaultDuration: 5,
        resolutions: ['720p'],
        aspectRatios: [],
        audio: 'optional',
      },
    ],
    FAKE_PRICES,
  ),
  modelIdKey: (name) => name.toLowerCase(),
  module: FakeFamilyModule,
  drafts: FakeDrafts,
  adapter: FakeAdapter as unknown as FamilyDefinition['adapter'],
};

export interface ServiceTestContext {
  module: TestingModule;
  dataSource: DataSource;
  clock: FakeClock;
  transactions: TransactionRunner;
  ledger: LedgerService;
  pricing: PricingService;
  transitions: TaskTransitionsService;
  router: ChannelRouter;
  breakers: ChannelBreakers;
  /** The task repositories, by job. */
  tasks: {
    reads: TaskReadRepository;
    stats: TaskStatsRepository;
    submits: TaskSubmitRepository;
    states: TaskStateRepository;
    leases: TaskLeaseRepository;
    sweeps: TaskSweepRepository;
  };
  adapter: FakeAdapter;
  pipeline: SubmitPipeline;
  sync: TaskSyncService;
  runner: JobRunner;
  config: AppConfig;
  /** Inserts a user with `quota` units in `group`. */
  createUser(quota: number, group?: string): Promise<UserEntity>;
  /** Reads a user's balance (quota, usedQuota) from the database. */
  balance(userId: number): Promise<{ quota: number; usedQuota: number }>;
  /** The user's ledger rows, oldest first. */
  ledgerRows(userId: number): Promise<LogEntity[]>;
  /** Inserts a task of the fake family (charged `quota`, not charged through the ledger). */
  createTask(userId: number, overrides?: Partial<TaskEntity> & { status?: TaskStatus }): Promise<TaskEntity>;
  createChannel(overrides: Partial<ChannelEntity>): Promise<ChannelEntity>;
  /** What one submit of the fake family costs (its default price, group `default`). */
  fakePrice(): Promise<number>;
  /** Submits `body` (model `fake-1` unless it says otherwise) on the unified form through the real pipeline. */
  submitFake(user: UserEntity, body?: Record<string, unknown>, idempotencyKey?: string): Promise<TaskEntity>;
  close(): Promise<void>;
}

/**
 * The middle test tier: the real data layer, money services, submit pipeline, task sync and job
 * runner on a fresh, migrated SQLite file (or MySQL or PostgreSQL database, for a repository's own SQL), with the fake family registered as production registers
 * its families (familyRegistration) and a hand-moved clock. No HTTP, no AppModule.
 */
export async function createServiceTestModule(
  extra: {
    providers?: Provider[];
    /** Entities besides the money's, the tasks' and the channels' (the repository under test's). */
    entities?: Parameters<typeof TypeOrmModule.forFeature>[0];
    /** SQLite unless given: MySQL and PostgreSQL get a fresh database (TEST_MYSQL_URL, TEST_POSTGRES_URL), dropped by close(). */
    database?: DatabaseKind;
  } = {},
): Promise<ServiceTestContext> {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-service-test-'));
  const kind = extra.database ?? 'sqlite';
  const server = kind === 'sqlite' ? null : await freshDatabase(kind);
  const config = {
    database: { kind, url: server?.url ?? '', path: join(dir, 'gateway.sqlite') },
    databaseQueryTimeoutMs: 5_000,
    taskSyncIntervalMs: 0,
    assetFollowUpIntervalMs: 0,
    taskTimeoutMs: 60_000,
    taskLeaseMs: 30_000,
    mediaAllowPrivateHosts: true,
    publicBaseUrl: 'http://127.0.0.1:1',
    publicBaseUrlSet: false,
    providerPushPollMs: 60_000,
    simulator: false,
    serverSecret: 'service-test-secret-0123456789abcdef',
    channelBreakerFailures: 5,
    channelBreakerCooldownMs: 30_000,
    taskProviderRetries: 1,
    redisKeyPrefix: 'gateway:',
  } as AppConfig;
  const clock = new FakeClock();
  const fakeFamily = familyRegistration([FAKE_FAMILY]);
  const module = await Test.createTestingModule({
    imports: [
      ConfigModule.forRoot(config),
      DatabaseModule.forRoot(config),
      ScheduleModule.forRoot(),
      TypeOrmModule.forFeature([
        UserEntity,
        ApiKeyEntity,
        LogEntity,
        PriceRuleEntity,
        GroupRatioEntity,
        TaskEntity,
        TaskEventEntity,
        ChannelEntity,
        UpstreamCallStatsEntity,
        CatalogModelEntity,
        ...(extra.entities ?? []),
      ]),
      ...fakeFamily.imports,
    ],
    providers: [
      MetricsRegistry,
      JobMetrics,
      JobRunner,
      JobContext,
      UserRepository,
      ApiKeyRepository,
      LogRepository,
      PriceRepository,
      LedgerService,
      ApiKeySpending,
      KeyRefusals,
      PricingService,
      CatalogRepository,
      CatalogService,
      TaskReadRepository,
      TaskStatsRepository,
      TaskSubmitRepository,
      TaskStateRepository,
      TaskLeaseRepository,
      TaskSweepRepository,
      TaskMetrics,
      TaskEndHooks,
      TaskCostLookup,
      TaskSettlementService,
      TaskSubmitFields,
      TaskTransitionsService,
      PendingSubmitWrites,
      ProviderCancel,
      ProviderPushMetrics,
      ProviderReads,
      ProviderCallbackLinks,
      SubmitIdempotency,
      SubmitHold,
      SubmitSettlement,
      SubmitLeases,
      SubmitChannelReports,
      HandToProvider,
      SubmitAttempts,
      TaskSubmitService,
      DispatchPlanner,
      RouteDrafting,
      SubmitPipeline,
      TaskSyncService,
      TaskDeadline,
      TaskLateWatchRepository,
      LateCompletionWatch,
      ProviderRetry,
      ChannelSecretBox,
      ChannelRepository,
      UpstreamCallStatsRepository,
      ChannelUrlCheck,
      ChannelsService,
      ChannelRequestCounter,
      ChannelRouter,
      ChannelSettingTraits,
      UpstreamCallRecorder,
      RedisConnection,
      BreakerStates,
      ChannelBreakers,
      ...fakeFamily.providers,
      ...(extra.providers ?? []),
    ],
  })
    .overrideProvider(Clock)
    .useValue(clock)
    .compile();
  await module.init();
  const dataSource = module.get(DataSource);
  let taskSeq = 0;

  return {
    module,
    dataSource,
    clock,
    transactions: module.get(TransactionRunner),
    ledger: module.get(LedgerService),
    pricing: module.get(PricingService),
    transitions: module.get(TaskTransitionsService),
    router: module.get(ChannelRouter),
    breakers: module.get(ChannelBreakers),
    tasks: {
      reads: module.get(TaskReadRepository),
      stats: module.get(TaskStatsRepository),
      submits: module.get(TaskSubmitRepository),
      states: module.get(TaskStateRepository),
      leases: module.get(TaskLeaseRepository),
      sweeps: module.get(TaskSweepRepository),
    },
    adapter: module.get(FakeAdapter),
    pipeline: module.get(SubmitPipeline),
    sync: module.get(TaskSyncService),
    runner: module.get(JobRunner),
    config,
    async createUser(quota, group = 'default') {
      const now = clock.now();
      const user = dataSource.manager.create(UserEntity, {
        username: `user-${Math.random().toString(36).slice(2, 10)}`,
        group,
        status: 'active',
        role: 'user',
        quota,
        usedQuota: 0,
        verificationEnabled: false,
        passwordHash: null,
        createdAt: now,
        updatedAt: now,
      } as Partial<UserEntity>);
      return dataSource.manager.save(UserEntity, user);
    },
    async balance(userId) {
      const user = await dataSource.manager.findOneByOrFail(UserEntity, { id: userId });
      return { quota: user.quota, usedQuota: user.usedQuota };
    },
    ledgerRows(userId) {
      return dataSource.manager.find(LogEntity, { where: { userId }, order: { id: 'ASC' } });
    },
    async createTask(userId, overrides = {}) {
      const now = clock.now();
      const task = dataSource.manager.create(TaskEntity, {
        taskId: `task_${++taskSeq}`,
        userId,
        apiKeyId: null,
        group: 'default',
        platform: FAKE_PLATFORM,
        model: FAKE_MODEL,
        upstreamModel: `${FAKE_MODEL}-upstream`,
        action: 'textGenerate',
        channelId: null,
        upstreamTaskId: null,
        status: 'QUEUED',
        progress: 0,
        quota: 0,
        request: {},
        properties: null,
        upstreamResponse: null,
        resultUrl: null,
        outputSize: null,
        failReason: null,
        submitTime: now,
        startTime: null,
        finishTime: null,
        nextPollAt: now,
        leaseOwner: null,
        leaseUntil: null,
        pollFailures: 0,
        idempotencyKey: null,
        requestHash: null,
        deletedAt: null,
        createdAt: now,
        updatedAt: now,
        ...overrides,
      });
      return dataSource.manager.save(TaskEntity, task);
    },
    async createChannel(overrides) {
      const now = clock.now();
      const channel = dataSource.manager.create(ChannelEntity, {
        name: 'channel',
        platform: FAKE_PLATFORM,
        baseUrl: 'http://127.0.0.1:1',
        apiKey: 'sk-test',
        models: [FAKE_MODEL],
        modelMapping: null,
        settings: null,
        groups: null,
        priority: 0,
        weight: 1,
        status: 'enabled',
        requestCount: 0,
        errorCount: 0,
        lastError: null,
        createdAt: now,
        updatedAt: now,
        ...overrides,
      });
      const saved = await dataSource.manager.save(ChannelEntity, channel);
      // Written past ChannelsService: tell the router as it would.
      module.get(ChannelRouter).forgetChannels();
      return saved;
    },
    async fakePrice() {
      return (await module.get(PricingService).quote({ model: FAKE_MODEL, resolution: '720p', seconds: 5, group: 'default' })).quota;
    },
    submitFake(user, body = {}, idempotencyKey) {
      return module.get(SubmitPipeline).submit({ form: 'unified', body: { model: FAKE_MODEL, ...body } }, { user }, { idempotencyKey });
    },
    async close() {
      await module.close();
      rmSync(dir, { recursive: true, force: true });
      await server?.drop();
    },
  };
}

/** A service-tier module with one enabled channel of the fake family, and what one fake submit costs. */
export async function createWithFakeChannel(): Promise<{ t: ServiceTestContext; price: number }> {
  const t = await createServiceTestModule();
  await t.createChannel({});
  return { t, price: await t.fakePrice() };
}
