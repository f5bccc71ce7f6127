/**
 * A ledger row's `detail` is English text (kept as is for API compatibility). The console shows it in
 * its own language from `detail_code` and `detail_params`, read here from the texts the gateway
 * writes: the quote (PricingService.quote), a refund or a released hold (TaskTransitions), a top-up.
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
  (detail) => {
    const m = /^refund: task (\S+) failed: (.*)$/s.exec(detail);
    return m ? { detail_code: 'refund_failed', detail_params: { task_id: m[1], reason: m[2] } } : null;
  },
  (detail) => {
    const m = /^released: task (\S+) rejected at submit: (.*)$/s.exec(detail);
    return m ? { detail_code: 'released_rejected', detail_params: { task_id: m[1], reason: m[2] } } : null;
  },
];

/** The code and parameters of a detail the gateway wrote; null for free text (or none). */
export function ledgerDetailCode(detail: string | null | undefined): LedgerDetailCode | null {
  if (!detail) return null;
  for (const read of READERS) {
    const found = read(detail);
    if (found) return found;
  }
  return null;
}
