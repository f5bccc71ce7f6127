/**
 * Family C's builtin models (the interface's): the data their catalog entries are made from
 * (gamma-catalog.ts). The rules read a model's catalog entry, never this.
 */
export const GAMMA_BUILTIN_MODELS = ['gamma-2-0', 'gamma-2-0-fast'] as const;

/** The builtin model `name` denotes (the version is not case-sensitive), or null. */
export const gammaBuiltinModelOf = (name: string): string | null =>
  (GAMMA_BUILTIN_MODELS as readonly string[]).includes(name.toLowerCase()) ? name.toLowerCase() : null;
