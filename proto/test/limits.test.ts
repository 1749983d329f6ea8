import { describe, expect, it } from 'vitest';
import { EMPLOYEES_MAX, formatCount, NAME_MAX } from '../src/rules/limits.js';
import { CLIENT_PROFILE_MESSAGES } from '../src/rules/client-profile.js';
import { ClientCreateBodySchema } from '../src/crm/clients.js';
import { LeadCreateBodySchema } from '../src/crm/leads.js';

describe('formatCount', () => {
  it.each([
    [0, '0'],
    [7, '7'],
    [1234, '1,234'],
    [200000, '200,000'],
    [1_000_000, '1,000,000'],
    [null, '0'],
    [undefined, '0'],
  ])('%j -> %j', (n, text) => {
    expect(formatCount(n)).toBe(text);
  });
});

describe('the shared limits reach the schemas and the messages', () => {
  it('names and employees', () => {
    const props = ClientCreateBodySchema.properties;
    expect(props.company_name.maxLength).toBe(NAME_MAX);
    expect(props.employees_count).toMatchObject({ minimum: 0, maximum: EMPLOYEES_MAX });
    expect(LeadCreateBodySchema.properties.name.maxLength).toBe(NAME_MAX);
    expect(CLIENT_PROFILE_MESSAGES.companyNameTooLong).toContain(`${NAME_MAX} characters`);
    expect(CLIENT_PROFILE_MESSAGES.employeesInvalid).toContain('1,000,000');
  });
});
