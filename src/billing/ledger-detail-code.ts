/**
 * A ledger row's `detail` is English text (kept as is for API compatibility). The console shows it in
 * its own language from `detail_code` and `detail_params`, read here from the texts the gateway
 * writes: the quote (PricingService.quote), a refund or a released hold (TaskTransitions), a top-up, a
 * redeemed code.
 * An admin's free text (an adjustment) has no code and is shown as written.
 */
export interface LedgerDetailCode {
  detail_code: string;
  detail_params: Record<string, string | number>;
}

type Reader = (detail: string) => LedgerDetailCode | null;

const FIXED: Record<string, string> = {
  'opening balance': 'opening_balance',
  'top-up': 'top_up',
  'top-up by admin': 'top_up_by_admin',
};

const number = (text: string): number | string => (Number.isFinite(Number(text)) ? Number(text) : text);

const READERS: Reader[] = [
  (detail) => (FIXED[detail] ? { detail_code: FIXED[detail], detail_params: {} } : null),
  // `<model> <resolution> <seconds>s[ (<tier>)]: <base> x group <group> ratio <ratio>`
  (detail) => {
    const m = /^(\S+) (\S+) (\d+)s(?: \(([^)]*)\))?: (\S+) x group (\S+) ratio (\S+)$/.exec(detail);
    if (!m) return null;
    const [, model, resolution, seconds, tier, base, group, ratio] = m;
    const tiers = (tier ?? '').split(', ').filter(Boolean);
    return {
      detail_code: 'price',
      detail_params: {
        model,
        resolution,
        seconds: number(seconds),
        base: number(base),
        group,
        ratio: number(ratio),
        audio: tiers.includes('audio') ? 1 : 0,
        fast_motion: tiers.includes('fast motion') ? 1 : 0,
      },
    };
  },
  // RedemptionCodesService: `redemption code …<hint> (#<id>)`.
  (detail) => {
    const m = /^redemption code …(\S+) \(#(\d+)\)$/.exec(detail);
    return m ? { detail_code: 'redemption_code', detail_params: { hint: m[1], id: Number(m[2]) } } : null;
  },
  (detail) => {
    const m = /^refund: task (\S+) failed: (.*)$/s.exec(detail);
    return m ? { detail_code: 'refund_failed', detail_params: { task_id: m[1], reason: m[2] } } : null;
  },
  (detail) => {
    const m = /^released: task (\S+) rejected at submit: (.*)$/s.exec(detail);
    return m ? { detail_code: 'released_rejected', detail_params: { task_id: m[1], reason: m[2] } } : null;
  },
  // A key's refusal (KeyRefusalLog): `<code>: <message> (key <id>)`, each message as the auth module writes it.
  (detail) => {
    const m = /^(key_expired|ip_not_allowed|key_rate_limited|key_quota_exceeded|key_budget_exceeded): (.*) \(key (\d+)\)$/s.exec(detail);
    if (!m) return null;
    const [, code, message, key] = m;
    const params = REFUSAL_PARAMS[code](message);
    return params ? { detail_code: `refused_${code}`, detail_params: { key: Number(key), ...params } } : null;
  },
];

const unixOf = (iso: string): number | string => (Number.isFinite(Date.parse(iso)) ? Math.floor(Date.parse(iso) / 1000) : iso);

/** The parameters of each refusal's message (src/auth: key-access.ts, account-rate-limiter.ts, api-key-spending.ts). */
const REFUSAL_PARAMS: Record<string, (message: string) => Record<string, string | number> | null> = {
  key_expired: (message) => {
    const m = /^api key expired at (\S+)$/.exec(message);
    return m ? { at: unixOf(m[1]) } : null;
  },
  ip_not_allowed: (message) => {
    const m = /^api key may not be used from (\S+)$/.exec(message);
    return m ? { address: m[1] } : null;
  },
  key_rate_limited: (message) => {
    const m = /^rate limit reached: this api key may send (\d+) requests per minute$/.exec(message);
    return m ? { rpm: Number(m[1]) } : null;
  },
  key_quota_exceeded: (message) => {
    const m = /^api key quota exceeded: this key may spend (\d+) units in all, (\d+) are left and this request costs (\d+)$/.exec(message);
    return m ? { limit: Number(m[1]), left: Number(m[2]), cost: Number(m[3]) } : null;
  },
  key_budget_exceeded: (message) => {
    const m = /^api key budget exceeded: (\d+) units left of (\d+) per (\S+) and this request costs (\d+); resets at (\S+)$/.exec(message);
    return m ? { left: Number(m[1]), budget: Number(m[2]), period: m[3], cost: Number(m[4]), resets_at: unixOf(m[5]) } : null;
  },
};

/** The code and parameters of a detail the gateway wrote; null for free text (or none). */
export function ledgerDetailCode(detail: string | null | undefined): LedgerDetailCode | null {
  if (!detail) return null;
  for (const read of READERS) {
    const found = read(detail);
    if (found) return found;
  }
  return null;
}
