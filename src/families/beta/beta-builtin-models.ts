import type { BetaCapability } from './beta-request';

/**
 * Family B's builtin models and the one capability each is (the interface's table): the data their
 * catalog entries are made from (beta-catalog.ts), and what the emulator serves. The rules read a
 * model's catalog entry (its `modes`), never this.
 */
export const BETA_BUILTIN_MODELS: Readonly<Record<string, BetaCapability>> = {
  'beta-1.0-t2v': 't2v',
  'beta-1.0-i2v': 'i2v',
  'beta-1.0-r2v': 'r2v',
  'beta-1.0-video-edit': 'video-edit',
};
