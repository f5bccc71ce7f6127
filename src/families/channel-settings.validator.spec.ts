import { assertSettingsMatchDefinitions } from './channel-settings.validator';
import { COMMON_CHANNEL_SETTINGS } from './common-channel-settings';

/** The 400 a channel's settings get, as {param, message}; null when they pass. */
function refusal(sent: Record<string, unknown>) {
  try {
    assertSettingsMatchDefinitions('fal', COMMON_CHANNEL_SETTINGS, sent, sent);
    return null;
  } catch (error) {
    const { message, options } = error as { message: string; options: { param?: string } };
    return { param: options.param, message };
  }
}

describe("every channel's usd_per_unit: what one of its provider's units costs the operator", () => {
  it('takes any non-negative number (a fraction of a cent per unit), and null to remove it', () => {
    expect(refusal({ usd_per_unit: 0.003125 })).toBeNull();
    expect(refusal({ usd_per_unit: 0 })).toBeNull();
    expect(refusal({ usd_per_unit: 2 })).toBeNull();
    expect(refusal({ usd_per_unit: null })).toBeNull();
  });

  it.each([
    ['a negative price', -0.01, 'settings.usd_per_unit must not be less than 0'],
    ['a text', '0.07', 'settings.usd_per_unit must be a number'],
    ['a boolean', true, 'settings.usd_per_unit must be a number'],
  ])('refuses %s: a 400 naming settings.usd_per_unit', (_name, value, message) => {
    expect(refusal({ usd_per_unit: value })).toEqual({ param: 'settings.usd_per_unit', message });
  });

  it('says what it is for in both console languages', () => {
    const setting = COMMON_CHANNEL_SETTINGS.find((candidate) => candidate.name === 'usd_per_unit')!;
    expect(setting).toMatchObject({ type: 'number', required: false, secret: false, min: 0 });
    expect(setting.description.en).toMatch(/fal's billable units, Vidu's credits, Replicate's predict seconds/);
    expect(setting.description['zh-CN']).toContain('Vidu');
  });
});
