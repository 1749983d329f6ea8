import { AML_MESSAGES, IDENTIFIER_MESSAGES } from '@countinghouse/proto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLES } from '../../services/documents/test/helpers.js';
import { auditPage, describeProblems, DESKTOP, PHONE } from './a11y.js';
import { apiJson, waitUntil } from './http.js';
import { launchBrowser, newContext, startE2EServer, type E2EServer } from './server.js';

// Issue 26's acceptance in Chromium: an accountant signs in at /login and lands on My work, opens
// their client's record (identifiers, deadlines, Timeline) and is refused another accountant's
// client; a sole trader's due diligence is completed by hand by the admin and approved by the MLRO,
// and the "Due diligence outstanding" badge goes; a UTR with a wrong check digit is refused in the
// form; axe finds nothing critical or serious on the new pages at 1280 and 390 px.

const ACCOUNTANT = { email: 'alex.ashdown@example.co.uk', password: 'alex-ashdown-pass-1', first: 'Alex', last: 'Ashdown' };
const OTHER_ACCOUNTANT = { email: 'olive.other@example.co.uk', password: 'olive-other-pass-1', first: 'Olive', last: 'Other' };
const MLRO = { email: 'margaret.hale@example.co.uk', password: 'margaret-hale-pass-1', first: 'Margaret', last: 'Hale' };
const MINE = 'Harry Hale Plumbing';
const THEIRS = 'Olive Bakery';
const PROPRIETOR = 'Harry James Hale';

let server: E2EServer;
let browser: Browser;
let admin: BrowserContext;
let page: Page;
let token: string;
let mineId: string;
let theirsId: string;

async function signUp(p: typeof ACCOUNTANT): Promise<string> {
  const su = await fetch(`${server.baseUrl}/api/identity/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: p.email, password: p.password, first_name: p.first, last_name: p.last }),
  });
  expect(su.status, await su.text()).toBe(201);
  const { rows } = await server.pool.query<{ id: string }>('select id from identity.users where email = $1', [p.email]);
  return rows[0]!.id;
}

async function signInAtLogin(p: Page, who: typeof ACCOUNTANT) {
  await p.goto('/login');
  await p.getByRole('heading', { name: 'Log in' }).waitFor();
  await p.getByLabel('Email', { exact: true }).fill(who.email);
  await p.getByLabel('Password', { exact: true }).and(p.locator('input')).fill(who.password);
  await p.getByRole('button', { name: /log in/i }).click();
}

beforeAll(async () => {
  server = await startE2EServer();
  const session = await apiJson<{ session_token: string }>(server.baseUrl, '', 'POST', '/api/identity/admin/login', server.admin);
  token = session.session_token;
  const accountantId = await signUp(ACCOUNTANT);
  const otherId = await signUp(OTHER_ACCOUNTANT);
  await signUp(MLRO);
  await apiJson(server.baseUrl, token, 'POST', '/api/identity/roles/grants', { email: ACCOUNTANT.email, role: 'accountant' });
  await apiJson(server.baseUrl, token, 'POST', '/api/identity/roles/grants', { email: OTHER_ACCOUNTANT.email, role: 'accountant' });
  for (const role of ['manager', 'mlro'])
    await apiJson(server.baseUrl, token, 'POST', '/api/identity/roles/grants', { email: MLRO.email, role });
  const mine = await apiJson<{ id: string }>(server.baseUrl, token, 'POST', '/api/crm/clients', {
    company_name: MINE,
    contact_email: 'harry@hale-plumbing.example',
    business_type: 'sole_trader',
  });
  const theirs = await apiJson<{ id: string }>(server.baseUrl, token, 'POST', '/api/crm/clients', {
    company_name: THEIRS,
    contact_email: 'olive@bakery.example',
  });
  mineId = mine.id;
  theirsId = theirs.id;
  // crm learns of the accountants from identity's events before it can assign them.
  for (const [id, accountant] of [
    [mineId, accountantId],
    [theirsId, otherId],
  ] as const) {
    await waitUntil(async () => {
      const r = await fetch(`${server.baseUrl}/api/crm/clients/${id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ assigned_accountant_id: accountant }),
      });
      return r.status === 200;
    });
  }
  await waitUntil(async () => {
    const r = await fetch(`${server.baseUrl}/api/aml/clients/${mineId}`, { headers: { authorization: `Bearer ${token}` } });
    return r.status === 200;
  });
  browser = await launchBrowser();
  admin = await newContext(browser, server.baseUrl);
  page = await admin.newPage();
  await page.goto('/admin/login');
  await page.getByLabel('Username').fill(server.admin.username);
  await page.getByLabel('Password').fill(server.admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/admin');
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('The workspace (issue 26)', () => {
  it('an accountant signs in at /login, lands on My work, opens their client and is refused another', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const p = await ctx.newPage();
    await signInAtLogin(p, ACCOUNTANT);
    await p.waitForURL('**/work');
    await p.getByRole('heading', { level: 1, name: 'My work' }).waitFor();
    await p.getByRole('heading', { name: /Overdue/ }).waitFor();
    // Nobody else's work: no Mine / Everyone switch for an accountant.
    expect(await p.getByText('Everyone', { exact: true }).count()).toBe(0);

    await p.goto(`/work/clients/${mineId}`);
    await p.getByRole('heading', { level: 1, name: MINE }).waitFor();
    await p.getByText('Accountant: Alex Ashdown').waitFor();
    await p.getByText('Identifiers').first().waitFor();
    await p.getByRole('tab', { name: 'Deadlines' }).click();
    await p.getByRole('tab', { name: 'Timeline' }).click();
    await p.locator('.client-timeline').or(p.getByText('Nothing has happened yet.')).first().waitFor({ timeout: 20_000 });
    await p.screenshot({ path: '/tmp/e2e-workspace-record-accountant.png', fullPage: true });

    const refused = await fetch(`${server.baseUrl}/api/crm/clients/${theirsId}/record`, {
      headers: { cookie: (await ctx.cookies()).map((c) => `${c.name}=${c.value}`).join('; ') },
    });
    expect(refused.status).toBe(403);
    await p.goto(`/work/clients/${theirsId}`);
    await p.getByText("You don't have access to this client").waitFor();
    expect(await p.getByText(THEIRS).count()).toBe(0);
    await ctx.close();
  });

  it('a UTR with a wrong check digit is refused in the form', async () => {
    await page.goto(`/admin/clients/${mineId}`);
    await page.getByRole('heading', { level: 1, name: MINE }).waitFor();
    await page.getByRole('button', { name: 'Edit identifiers' }).click();
    await page.getByLabel('UTR').fill('2123456789');
    await page.getByRole('button', { name: 'Save identifiers' }).click();
    await page.getByText(IDENTIFIER_MESSAGES.utrCheck).waitFor();
    await page.getByLabel('UTR').fill('1123456789');
    await page.getByRole('button', { name: 'Save identifiers' }).click();
    // Saved: the card shows the identifiers again (a refusal would be a message beside the field or a toast).
    const state = async () =>
      (await page.getByRole('button', { name: 'Edit identifiers' }).count())
        ? 'saved'
        : (await page.locator('.ant-message, .ant-form-item-explain-error').allTextContents()).join(' | ') || 'waiting';
    await expect.poll(state, { timeout: 20_000 }).toBe('saved');
    await page.getByText('1123456789', { exact: true }).waitFor();
  });

  it('the admin completes a sole trader’s due diligence by hand and the MLRO approves it; the badge goes', async () => {
    await page.goto(`/admin/clients/${mineId}`);
    const badges = page.getByRole('list', { name: 'Badges' });
    await badges.getByText(AML_MESSAGES.outstandingBadge).waitFor();
    await page.getByRole('tab', { name: 'AML' }).click();
    await page.getByRole('button', { name: 'Add person' }).click();
    const form = page.getByRole('dialog', { name: 'Add person' });
    await form.getByLabel('Full name').fill(PROPRIETOR);
    await form.getByLabel('Home address').fill('1 Pipe Lane, Leeds LS1 1AA');
    await form.getByRole('button', { name: 'Add person' }).click();
    await page.getByText(`${PROPRIETOR} added`).first().waitFor();
    const row = page.getByRole('row').filter({ has: page.getByText(PROPRIETOR, { exact: true }) });
    await row.getByText('Owner (sole trader)').waitFor();
    await row.locator('input[type=file]').setInputFiles({ name: 'harry-passport.pdf', mimeType: 'application/pdf', buffer: SAMPLES.pdf() });
    await row.getByText('harry-passport.pdf').waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Save risk answers' }).click();
    await page.getByText('Risk assessment saved').first().waitFor();
    await page.getByRole('button', { name: 'Send for MLRO approval' }).click();
    await page.getByText('awaiting approval', { exact: false }).first().waitFor();

    const ctx = await newContext(browser, server.baseUrl);
    const p = await ctx.newPage();
    await signInAtLogin(p, MLRO);
    await p.waitForURL('**/work');
    await p.goto(`/work/clients/${mineId}`);
    await p.getByRole('heading', { level: 1, name: MINE }).waitFor();
    await p.getByRole('tab', { name: 'AML' }).click();
    await p.getByText('MLRO sign-off').waitFor();
    await p.getByLabel('Approval note or reason for returning').fill('Passport seen on video; low risk sole trader.');
    await p.getByRole('button', { name: 'Approve' }).click();
    await p.getByText('Due diligence approved').first().waitFor();
    await ctx.close();

    await page.goto(`/admin/clients/${mineId}`);
    await page.getByRole('heading', { level: 1, name: MINE }).waitFor();
    await expect
      .poll(() => page.getByRole('list', { name: 'Badges' }).getByText(AML_MESSAGES.outstandingBadge).count(), { timeout: 20_000 })
      .toBe(0);
  });

  it('axe: nothing critical or serious on the record and My work at 1280 and 390 px, nothing wider than the screen', async () => {
    const checks = [
      ...(await auditPage(page, `/admin/clients/${mineId}`, (p) => p.getByRole('heading', { level: 1, name: MINE }).waitFor())),
      ...(await auditPage(page, '/admin/work', (p) => p.getByRole('heading', { level: 1, name: 'My work' }).waitFor())),
    ];
    const ctx = await newContext(browser, server.baseUrl);
    const p = await ctx.newPage();
    await signInAtLogin(p, ACCOUNTANT);
    await p.waitForURL('**/work');
    checks.push(
      ...(await auditPage(p, '/work', (x) => x.getByRole('heading', { level: 1, name: 'My work' }).waitFor())),
      ...(await auditPage(p, `/work/clients/${mineId}`, (x) => x.getByRole('heading', { level: 1, name: MINE }).waitFor())),
      ...(await auditPage(p, `/work/clients/${theirsId}`, (x) => x.getByText("You don't have access to this client").waitFor())),
    );
    // For a person to look at: My work and the record at both sizes.
    for (const [size, viewport] of [
      ['phone', PHONE],
      ['desktop', DESKTOP],
    ] as const) {
      await p.setViewportSize(viewport);
      await p.goto('/work');
      await p.getByRole('heading', { level: 1, name: 'My work' }).waitFor();
      await p.screenshot({ path: `/tmp/e2e-workspace-mywork-${size}.png`, fullPage: true });
      await p.goto(`/work/clients/${mineId}`);
      await p.getByRole('heading', { level: 1, name: MINE }).waitFor();
      await p.screenshot({ path: `/tmp/e2e-workspace-record-${size}.png`, fullPage: true });
    }
    await ctx.close();
    expect(describeProblems(checks)).toEqual([]);
  });
});
