import { describe, expect, it } from 'vitest';
import { normaliseRequestTarget } from '../src/request-target.js';

// The one normal form the router and every guard see (request-target.ts).
describe('normaliseRequestTarget', () => {
  it.each([
    ['/api/crm/tasks', '/api/crm/tasks'],
    ['/api/crm/tasks?q=%2F%00#x', '/api/crm/tasks?q=%2F%00#x'], // the query string is not the path's business
    ['/%61pi/identity/admin/login', '/api/identity/admin/login'],
    ['/%41PI/x', '/API/x'], // decoded, case kept: the router is case-sensitive
    ['/api/%7euser/%2d%2E%5F', '/api/~user/-._'],
    ['//api//crm///tasks', '/api/crm/tasks'],
    ['/api/./crm/tasks', '/api/crm/tasks'],
    ['/api/crm/../crm/tasks', '/api/crm/tasks'],
    ['/api/crm/%2e%2E/crm/tasks', '/api/crm/tasks'],
    ['/api/crm/tasks/', '/api/crm/tasks/'],
    ['/api/crm/tasks/.', '/api/crm/tasks/'],
    ['/api/crm/x/..', '/api/crm/'],
    ['/api/a%20b/%c3%a9', '/api/a%20b/%C3%A9'], // other encodings kept, upper-case hex
    ['/api/crm/tasks;jsessionid=1', '/api/crm/tasks;jsessionid=1'],
    ['/.well-known/x', '/.well-known/x'],
    ['/', '/'],
    ['//', '/'],
  ])('%s -> %s', (input, url) => {
    const n = normaliseRequestTarget(input);
    expect(n).toMatchObject({ ok: true, url });
  });

  it.each([
    ['/%2Fapi/crm/tasks', 'encoded slash or backslash'],
    ['/api/crm%2ftasks', 'encoded slash or backslash'],
    ['/api/crm%5Ctasks', 'encoded slash or backslash'],
    ['/api\\crm/tasks', 'backslash'],
    ['/..', 'path above the root'],
    ['/api/../../etc/passwd', 'path above the root'],
    ['/%2e%2e/x', 'path above the root'],
    ['/api/%zz', 'invalid percent-encoding'],
    ['/api/%4', 'invalid percent-encoding'],
    ['/api/%00', 'control character'],
    ['/api/%0a', 'control character'],
    ['/api/\u0000', 'control or non-ASCII character'],
    ['/api/é', 'control or non-ASCII character'],
    ['/api/%ff', 'invalid UTF-8'],
    ['/api/x#frag', 'fragment in the request target'],
    ['http://evil.example/api/x', 'not an absolute path'],
    ['*', 'not an absolute path'],
  ])('%s is refused (%s)', (input, reason) => {
    expect(normaliseRequestTarget(input)).toEqual({ ok: false, reason });
  });

  it('is idempotent', () => {
    for (const u of ['/%61pi//x/./y/../z/', '/a%20b/%c3%a9', '/api/crm/tasks?x=1']) {
      const once = normaliseRequestTarget(u);
      if (!once.ok) throw new Error(u);
      expect(normaliseRequestTarget(once.url)).toEqual(once);
    }
  });
});
