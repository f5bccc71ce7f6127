import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import type { Metric } from 'prom-client';
import { MetricsRegistry } from '../src/metrics/metrics-registry';
import { startGateway, TestGateway } from './support/gateway';
import { metricFamilies } from './support/metrics-text';
import { describeOnSqlite } from './support/test-databases';

const DOCKER = join(__dirname, '..', 'docker');
const read = (path: string) => readFileSync(join(DOCKER, path), 'utf8');
const yaml = (path: string) => load(read(path)) as Record<string, any>;

/** Added by the provider-push work in its own branch; their labels as the product contract names them. */
const FROM_PROVIDER_PUSH: Record<string, string[]> = {
  gateway_provider_callbacks_total: ['platform', 'result'],
  gateway_provider_reads_total: ['platform', 'reason'],
};
/** Labels Prometheus adds to every series it scrapes (honor_labels keeps the gateway's own `job`). */
const TARGET_LABELS = ['instance'];
const HISTOGRAM_SERIES = /_(bucket|sum|count)$/;

interface Panel {
  type: string;
  title: string;
  datasource?: { uid: string };
  targets?: Array<{ expr: string; datasource?: { uid: string } }>;
}

/**
 * The files of `docker/` that Prometheus and Grafana read, checked against the gateway they watch:
 * every query of the dashboard names metrics a booted gateway registers, grouped by labels they have.
 */
describeOnSqlite('docker/: Prometheus and Grafana files', (kind) => {
  let gw: TestGateway;
  let scraped: Map<string, string>;
  const dashboard = JSON.parse(read('grafana/dashboards/video-gateway.json')) as { uid: string; panels: Panel[] };
  const queries = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ panel: panel.title, expr: target.expr })));

  beforeAll(async () => {
    // As compose runs it: with Redis (its metrics exist only then); a key prefix of its own.
    gw = await startGateway(kind, {
      REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      REDIS_KEY_PREFIX: `gwtest-${randomBytes(6).toString('hex')}:`,
    });
    scraped = metricFamilies((await gw.http.get('/metrics').expect(200)).text);
  });
  afterAll(async () => {
    await gw?.close();
  });

  /** The label names of a metric of the gateway (or of the provider-push branch's), null when there is none of that name. */
  const labelsOf = (name: string): string[] | null => {
    if (FROM_PROVIDER_PUSH[name]) return FROM_PROVIDER_PUSH[name];
    const family = scraped.has(name) ? name : name.replace(HISTOGRAM_SERIES, '');
    if (!scraped.has(family)) return null;
    if (family !== name && scraped.get(family) !== 'histogram') return null;
    const metric: (Metric & { labelNames?: string[] }) | undefined = gw.app.get(MetricsRegistry).getSingleMetric(family);
    return [...(metric?.labelNames ?? []), ...(family !== name ? ['le'] : [])];
  };

  it('every query names metrics the gateway exposes, grouped only by labels they carry', () => {
    expect(queries.length).toBeGreaterThan(20);
    const wrong: string[] = [];
    for (const { panel, expr } of queries) {
      const names = [...new Set(expr.match(/\b(?:gateway|nodejs|process)_[a-z0-9_]+/g) ?? [])];
      if (names.length === 0) wrong.push(`${panel}: no metric in ${expr}`);
      for (const name of names) {
        const labels = labelsOf(name);
        if (!labels) {
          wrong.push(`${panel}: ${name} is not exposed`);
          continue;
        }
        for (const clause of expr.matchAll(/\bby \(([^)]*)\)/g))
          for (const label of clause[1].split(',').map((l) => l.trim()))
            if (!labels.includes(label) && !TARGET_LABELS.includes(label)) wrong.push(`${panel}: ${name} has no label ${label}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('the dashboard shows the metrics of "Seeing it run" and of providers that push', () => {
    const all = queries.map((query) => query.expr).join('\n');
    for (const name of [
      'gateway_tasks_in_flight',
      'gateway_task_oldest_in_flight_seconds',
      'gateway_poll_lag_seconds_bucket',
      'gateway_settlements_total',
      'gateway_provider_callbacks_total',
      'gateway_provider_reads_total',
    ])
      expect(all).toContain(name);
  });

  it('every panel queries the provisioned Prometheus data source', () => {
    const [source] = yaml('grafana/provisioning/datasources/prometheus.yml').datasources;
    expect(source).toMatchObject({ type: 'prometheus', url: 'http://prometheus:9090' });
    for (const panel of dashboard.panels.filter((p) => p.type !== 'row')) {
      expect({ panel: panel.title, uid: panel.datasource?.uid }).toEqual({ panel: panel.title, uid: source.uid });
      for (const target of panel.targets ?? []) expect(target.datasource?.uid).toBe(source.uid);
    }
  });

  it('compose starts Prometheus and Grafana under the observability profile, with the files they read, scraping both instances', () => {
    const compose = yaml('docker-compose.yml');
    for (const name of ['prometheus', 'grafana']) {
      const service = compose.services[name];
      expect(service.profiles).toEqual(['observability']);
      for (const mount of service.volumes as string[]) {
        const source = mount.split(':')[0];
        if (source.startsWith('./')) expect({ mount, exists: existsSync(join(DOCKER, source)) }).toEqual({ mount, exists: true });
      }
    }
    // The default `docker compose up` is unchanged: every other service has no profile.
    for (const [name, service] of Object.entries(compose.services as Record<string, { profiles?: string[] }>))
      if (name !== 'prometheus' && name !== 'grafana') expect({ name, profiles: service.profiles }).toEqual({ name, profiles: undefined });

    const grafana = compose.services.grafana;
    const provider = yaml('grafana/provisioning/dashboards/video-gateway.yml').providers[0];
    expect(grafana.volumes).toContain(`./grafana/dashboards:${provider.options.path}:ro`);
    expect(grafana.environment.GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH).toBe(`${provider.options.path}/video-gateway.json`);

    const [scrape] = yaml('prometheus/prometheus.yml').scrape_configs;
    expect(scrape).toMatchObject({ metrics_path: '/metrics', honor_labels: true });
    const gateways = Object.keys(compose.services).filter((name) => name.startsWith('gateway-'));
    expect(scrape.static_configs[0].targets.sort()).toEqual(gateways.map((name) => `${name}:3000`).sort());
  });
});
