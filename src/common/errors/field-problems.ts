import { AppError, type FieldProblem } from './app-error';

/**
 * The problems of one request, gathered so that its 400 names every bad field, not only the first.
 * `field` maps a field's own name to where it sits in the request (`models[2].prices`).
 */
export class FieldProblems {
  private readonly problems: FieldProblem[] = [];

  constructor(private readonly field: (name: string) => string = (name) => name) {}

  add(name: string, message: string): void {
    this.problems.push({ param: this.field(name), message });
  }

  get count(): number {
    return this.problems.length;
  }

  /** A 400 naming each problem (the first as `param`); nothing when there is none. */
  throwIfAny(): void {
    if (this.problems.length > 0) throw AppError.invalidFields(this.problems);
  }
}
