import type { FamilyRequestSchema, RequestExample, SubmitForm } from '../family';

/** An example that reads the same on both forms, or one written for each form. */
export type ExampleOnEachForm = RequestExample | ((form: SubmitForm) => RequestExample);

/**
 * A family's request examples on both forms: one text-to-video and one image-to-video example,
 * named `<prefix>-text-<form>` and `<prefix>-image-<form>`. The flat form's come first, since the
 * first example is what Swagger's "Try it out" starts with.
 */
export function textAndImageExamples(
  prefix: string,
  examples: { text: ExampleOnEachForm; image: ExampleOnEachForm },
): FamilyRequestSchema['examples'] {
  const onForm = (example: ExampleOnEachForm, form: SubmitForm) => (typeof example === 'function' ? example(form) : example);
  const named = (form: SubmitForm) => ({
    [`${prefix}-text-${form}`]: onForm(examples.text, form),
    [`${prefix}-image-${form}`]: onForm(examples.image, form),
  });
  return { flat: named('flat'), unified: named('unified') };
}

/** A length in an example as each form spells it: the flat form's `seconds` is text, the unified form's `duration` a number. */
export function secondsOn(form: SubmitForm, seconds: number): Record<string, unknown> {
  return form === 'flat' ? { seconds: String(seconds) } : { duration: seconds };
}
