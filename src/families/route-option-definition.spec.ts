import { FAMILIES } from './family-registry';
import type { RouteOptionDefinition } from './route-option-definition';

/** A value of each kind its family's check takes (the console's form writes such values). */
function sample(option: RouteOptionDefinition): unknown {
  if (option.kind === 'boolean') return true;
  if (option.kind === 'choice') return option.choices![0];
  if (option.kind === 'list') return option.choices ? [option.choices[0]] : [10];
  if (option.kind === 'input_map') return { prompt: 'prompt', seconds: { field: 'duration', as: 'string' } };
  return option.name === 'output' ? 'videos[0].url' : '1080p';
}

describe("a platform's route options as the console draws them", () => {
  it.each(FAMILIES.map((family) => [family.platform, family] as const))(
    '%s: every option it describes, with a value of its kind, is one its check takes; an option it does not describe is refused',
    (_platform, family) => {
      const options = Object.fromEntries((family.routeOptions ?? []).map((option) => [option.name, sample(option)]));
      const verdict = family.checkRouteOptions ? family.checkRouteOptions(options) : Object.keys(options).length ? 'refused' : null;
      expect(verdict).toBeNull();
      for (const option of family.routeOptions ?? [])
        expect(option.label.en && option.label['zh-CN'] && option.description['zh-CN']).toBeTruthy();
      const unknown = { ...options, no_such_option: true };
      expect(family.checkRouteOptions ? family.checkRouteOptions(unknown) : { field: 'no_such_option' }).toMatchObject({
        field: 'no_such_option',
      });
    },
  );
});
