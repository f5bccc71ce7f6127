import { AppError } from '../common/errors/app-error';
import type { ChannelSettings, Platform } from '../upstream/channel.entity';
import type { ChannelSettingDefinition } from './channel-setting-definition';

/**
 * The one validator of a channel's settings, driven by its family's definitions: each sent setting
 * must be one the family takes and of its type (null removes it), and the channel as it will be
 * (`merged`: the stored settings with the sent ones over them) must hold every required one.
 * A 400 naming `settings.<name>`.
 */
export function assertSettingsMatchDefinitions(
  platform: Platform,
  definitions: readonly ChannelSettingDefinition[],
  sent: ChannelSettings | undefined,
  merged: ChannelSettings | null | undefined,
): void {
  for (const [name, value] of Object.entries(sent ?? {})) {
    const definition = definitions.find((candidate) => candidate.name === name);
    const field = `settings.${name}`;
    // Worded as the strict validation pipe words any unknown field.
    if (!definition) throw AppError.invalid(`property ${name} should not exist`, field);
    if (value === null) continue;
    const problem = typeProblem(definition, value);
    if (problem) throw AppError.invalid(`${field} ${problem}`, field);
  }
  for (const definition of definitions) {
    const value = merged?.[definition.name];
    if (definition.required && (value === undefined || value === null || value === '')) {
      throw AppError.invalid(`settings.${definition.name} is required for ${platform} channels`, `settings.${definition.name}`);
    }
  }
}

function typeProblem(definition: ChannelSettingDefinition, value: unknown): string | null {
  const { min, max } = definition;
  if (definition.type === 'integer') {
    if (typeof value !== 'number' || !Number.isInteger(value)) return 'must be an integer number';
    if (min !== undefined && value < min) return `must not be less than ${min}`;
    if (max !== undefined && value > max) return `must not be greater than ${max}`;
    return null;
  }
  if (definition.type === 'boolean') return typeof value === 'boolean' ? null : 'must be a boolean value';
  if (definition.type === 'number') {
    if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
    if (min !== undefined && value < min) return `must not be less than ${min}`;
    if (max !== undefined && value > max) return `must not be greater than ${max}`;
    return null;
  }
  if (typeof value !== 'string') return 'must be a string';
  const shortest = min ?? 1;
  if (value.length < shortest || (max !== undefined && value.length > max))
    return max !== undefined ? `must be between ${shortest} and ${max} characters` : `must be at least ${shortest} characters`;
  return null;
}
