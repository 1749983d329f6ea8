import type { Rule } from 'antd/es/form';
import { emailProblem, employeesProblem, NAME_MAX, phoneProblem } from '@countinghouse/proto';

/**
 * The one way a form gets its rules (issue 17.3): from one of proto's checks, the function the server
 * calls on the same field, so the form says what the server would (the same words) before sending.
 * `required` only marks the field for people (the asterisk, aria-required); the check itself decides,
 * so a check that accepts '' leaves an optional field optional.
 */
export function protoRule<T = string>(problem: (value: T) => string | null, opts: { required?: boolean; empty?: T } = {}): Rule {
  const empty = 'empty' in opts ? opts.empty : '';
  return {
    required: opts.required ?? false,
    validator: async (_rule, value: T | undefined | null) => {
      const p = problem((value ?? empty) as T);
      if (p) throw new Error(p);
    },
  };
}

/** A check that lets an empty value through: for optional fields with a rule when filled in. */
export function optional(problem: (text: string) => string | null): (text: string) => string | null {
  return (text) => ((text ?? '').trim() === '' ? null : problem(text));
}

/** Required text of at most `max` characters (proto's NAME_MAX unless said): the schemas' minLength 1 / maxLength. */
function textProblem(requiredMessage: string | undefined, max = NAME_MAX): (text: string) => string | null {
  return (text) => {
    const v = (text ?? '').trim();
    if (!v) return requiredMessage ?? null;
    return v.length > max ? `At most ${max} characters` : null;
  };
}

/** A number of employees: proto's rule; left empty it is optional (the form then sends 0). */
const employees = (required: boolean) =>
  protoRule<number | null>((n) => (n === null && !required ? null : employeesProblem(n)), { required, empty: null });

/** The rules of the usual fields, ready to pass to Form.Item. */
export const FORM_RULES = {
  email: (requiredMessage: string) => [protoRule((t: string) => (t.trim() ? emailProblem(t) : requiredMessage), { required: true })],
  optionalPhone: () => [protoRule(optional(phoneProblem))],
  employees: (opts: { required?: boolean } = {}) => [employees(opts.required ?? false)],
  text: (requiredMessage?: string, max = NAME_MAX) => [
    protoRule(textProblem(requiredMessage, max), { required: Boolean(requiredMessage) }),
  ],
};
