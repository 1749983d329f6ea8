import { describe, expect, it } from 'vitest';
import { normaliseSettingsPatch, SETTINGS_MESSAGES as M, validateSettingsPatch } from '../src/settings/settings.js';

describe('validateSettingsPatch', () => {
  it.each([
    [{ name: 'Ledger & Co', phone: '+44 (0)20 7946 0999', email: 'hello@ledger.co.uk', maintenance: true }, []],
    [{ maintenance: false }, []],
    [{ name: '' }, [{ path: 'name', message: M.nameRequired }]],
    [{ name: 'x'.repeat(101) }, [{ path: 'name', message: M.nameTooLong }]],
    [{ phone: '12345' }, [{ path: 'phone', message: M.phoneInvalid }]],
    [{ phone: '020-7946-0321' }, [{ path: 'phone', message: M.phoneInvalid }]],
    [{ phone: '+( ) ( ) ( ) 1' }, [{ path: 'phone', message: M.phoneDigits }]],
    [{ email: 'a@b' }, [{ path: 'email', message: M.emailInvalid }]],
    [
      { name: ' ', phone: 'x', email: 'y' },
      [
        { path: 'name', message: M.nameRequired },
        { path: 'phone', message: M.phoneInvalid },
        { path: 'email', message: M.emailInvalid },
      ],
    ],
  ])('%j -> %j', (patch, problems) => {
    expect(validateSettingsPatch(normaliseSettingsPatch(patch))).toEqual(problems);
  });

  it('normalises spaces before storing', () => {
    expect(normaliseSettingsPatch({ name: '  Ledger   &  Co ', phone: ' 020  7946 0321 ', email: ' a@b.co ' })).toEqual({
      name: 'Ledger & Co',
      phone: '020 7946 0321',
      email: 'a@b.co',
    });
  });
});
