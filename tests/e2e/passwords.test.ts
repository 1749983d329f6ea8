import { IDENTITY_ROUTES, MESSAGES } from '@countinghouse/proto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base32Decode, totp } from '../../services/identity/src/domain/totp.js';
import { auditPage, describeProblems } from './a11y.js';
import { launchBrowser, newContext, startE2EServer, type E2EServer } from './server.js';

// Issue #21 in Chromium against the all-in-one server: forgot password → the outgoing-mail log (no
// SMTP here) → reset → sign in with the new password; and the invite link copied once, at creation.
let server: E2EServer;
let browser: Browser;
let admin: BrowserContext;
let adminPage: Page;

const CLIENT = { email: 'forgetful.fiona@example.co.uk', password: 'fiona-first-pass-1', next: 'fiona-second-pass-2' };
const CAREFUL = { email: 'careful.carol@example.co.uk', password: 'carol-careful-pass-1' };
const KEYED = { email: 'keyed.kim@example.co.uk', password: 'kim-passkey-pass-1' };

beforeAll(async () => {
  server = await startE2EServer();
  browser = await launchBrowser();
  admin = await newContext(browser, server.baseUrl, { permissions: ['clipboard-read', 'clipboard-write'] });
  adminPage = await admin.newPage();
  await adminPage.goto('/admin/login');
  await adminPage.getByLabel('Username').fill(server.admin.username);
  await adminPage.getByLabel('Password').fill(server.admin.password);
  await adminPage.getByRole('button', { name: 'Sign in' }).click();
  await adminPage.waitForURL('**/admin');
  const signup = await fetch(`${server.baseUrl}${IDENTITY_ROUTES.signup}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: CLIENT.email, password: CLIENT.password, first_name: 'Fiona' }),
  });
  expect(signup.status).toBe(201);
  const carol = await fetch(`${server.baseUrl}${IDENTITY_ROUTES.signup}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: CAREFUL.email, password: CAREFUL.password, first_name: 'Carol' }),
  });
  expect(carol.status).toBe(201);
  const kim = await fetch(`${server.baseUrl}${IDENTITY_ROUTES.signup}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: KEYED.email, password: KEYED.password, first_name: 'Kim' }),
  });
  expect(kim.status).toBe(201);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('passwords and invitations in the browser', () => {
  it('forgot password → the mail log → reset → sign in with the new password', async () => {
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL('**/forgot-password');
    // The URL changes at once, but the router keeps the sign-in page (whose field is also "Email") on
    // screen until the new page's chunk has loaded: typing before the new page shows went into the old
    // form (two CI runs). The new page's own button shows that it is there.
    await page.getByRole('button', { name: 'Send reset link' }).waitFor();
    const email = page.getByLabel('Email');
    await email.fill(CLIENT.email);
    await expect.poll(() => email.inputValue()).toBe(CLIENT.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText(MESSAGES.passwordResetRequested).waitFor();

    // No SMTP: the e-mail waits in the outgoing-mail log, which the administrator reads.
    await adminPage.goto('/admin/staff');
    await adminPage.getByRole('button', { name: 'Open the outgoing-mail log' }).click();
    const body = adminPage
      .locator('.staff-management__mail')
      .filter({ hasText: `To ${CLIENT.email}` })
      .locator('pre');
    await body.waitFor();
    const link = /http\S+\/reset-password\?token=[\w-]+/.exec(await body.innerText())?.[0];
    expect(link).toBeDefined();
    await adminPage.keyboard.press('Escape');

    await page.goto(link!);
    await page.getByLabel('New password', { exact: true }).fill(CLIENT.next);
    await page.getByLabel('Confirm new password').fill(CLIENT.next);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByText(MESSAGES.passwordResetDone).waitFor();
    await page.locator('main').getByRole('link', { name: 'Sign in', exact: true }).click();
    await page.waitForURL('**/login');
    await page.getByLabel('Email').fill(CLIENT.email);
    await page.getByLabel('Password').fill(CLIENT.next);
    await page.getByLabel('Password').press('Enter');
    await page.waitForURL('**/client-dashboard');

    // The link worked once.
    await page.goto(link!);
    await page.getByText(MESSAGES.passwordResetInvalid).waitFor();
    await context.close();
  });

  it("the invite link is shown once, at creation, and Copy Link says 'Invite link copied to clipboard!'", async () => {
    await adminPage.goto('/admin/staff');
    await adminPage.getByLabel('Email').fill('new.joiner@example.co.uk');
    await adminPage.getByLabel('Role').click();
    await adminPage
      .locator('.ant-select-item-option')
      .filter({ hasText: /^Accountant$/ })
      .click();
    await adminPage.getByRole('button', { name: 'Send Invitation' }).click();
    await adminPage.getByText(MESSAGES.inviteLinkShownOnce).waitFor();
    await adminPage.locator('.staff-management__link-once').getByRole('button', { name: 'Copy Link' }).click();
    await adminPage.getByText(MESSAGES.inviteLinkCopied, { exact: true }).waitFor();
    const link = await adminPage.evaluate<string>('navigator.clipboard.readText()');
    expect(link).toMatch(new RegExp(`^${server.baseUrl}/staff/signup\\?token=[\\w-]{40,}$`));
    await adminPage.screenshot({ path: '/tmp/e2e-invite-link-once.png', fullPage: true });
    // After a reload the list has no link to copy.
    await adminPage.reload();
    await adminPage.getByTestId('invitation').filter({ hasText: 'new.joiner@example.co.uk' }).getByText('pending').waitFor();
    expect(await adminPage.getByRole('button', { name: 'Copy Link' }).count()).toBe(0);
    expect(await adminPage.content()).not.toContain(new URL(link).searchParams.get('token')!);
  });

  it('two-factor sign-in (issue 32): set up on Account security with the QR code or the key, then sign in with a code', async () => {
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    const now = () => Math.floor(Date.now() / 1000);
    await page.goto('/login');
    await page.getByLabel('Email').fill(CAREFUL.email);
    await page.getByLabel('Password').fill(CAREFUL.password);
    await page.getByLabel('Password').press('Enter');
    await page.waitForURL('**/client-dashboard');
    // In the client portal (issue 33, item 4): Account, then Account security.
    await page.getByRole('navigation', { name: 'Client portal' }).getByRole('link', { name: 'Account' }).click();
    await page.waitForURL('**/portal/account');
    await page.getByRole('link', { name: 'Account security' }).click();
    await page.waitForURL('**/account/security');
    const setUp = page.getByRole('button', { name: 'Set up an authenticator app' });
    // The page before and during enrolment, at 1280 and 390 px.
    const before = await auditPage(page, '/account/security', (p) =>
      p.getByRole('button', { name: 'Set up an authenticator app' }).waitFor(),
    );
    expect(describeProblems(before)).toEqual([]);
    await setUp.click();
    await page
      .getByRole('img', { name: /QR code/ })
      .locator('svg')
      .waitFor();
    const key = base32Decode((await page.getByTestId('totp-secret').innerText()).replace(/\s/g, ''))!;
    // The current step's code: the server takes a step either side, so a step boundary passed before it
    // checks does no harm (the previous step's code would then be two behind and refused).
    const enrolledAt = now();
    await page.getByLabel('Authentication code').fill(totp(key, enrolledAt));
    await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await codes.first().waitFor();
    expect(await codes.count()).toBe(10);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download codes' }).click();
    expect((await download).suggestedFilename()).toBe('countinghouse-recovery-codes.txt');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL('**/client-dashboard');
    const after = await auditPage(page, '/account/security', (p) => p.getByRole('button', { name: 'New recovery codes' }).waitFor());
    expect(describeProblems(after)).toEqual([]);
    await context.close();

    // A new browser: the password, then the code the app shows now.
    const again = await newContext(browser, server.baseUrl);
    const next = await again.newPage();
    await next.goto('/login');
    await next.getByLabel('Email').fill(CAREFUL.email);
    await next.getByLabel('Password').fill(CAREFUL.password);
    await next.getByLabel('Password').press('Enter');
    const code = next.getByLabel('Authentication code');
    await code.waitFor();
    // A code works once: a step later than enrolment's, the next one if the clock is still in it.
    await code.fill(totp(key, Math.max(now(), enrolledAt + 30)));
    await code.press('Enter');
    await next.waitForURL('**/client-dashboard');
    await again.close();
  });

  it('passkeys (issue 32): add one on Account security, then sign in with it alone (Chromium virtual authenticator)', async () => {
    // WebAuthn takes no IP address as its relying party: the same server as http://localhost:port.
    const local = server.baseUrl.replace('127.0.0.1', 'localhost');
    const context = await newContext(browser, local);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    await page.goto('/login');
    await page.getByLabel('Email').fill(KEYED.email);
    await page.getByLabel('Password').fill(KEYED.password);
    await page.getByLabel('Password').press('Enter');
    await page.waitForURL('**/client-dashboard');
    await page.goto('/account/security');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByRole('list', { name: 'Your passkeys' }).getByRole('listitem').first().waitFor();

    // Signed out: the passkey alone signs in, and the password alone no longer does.
    await context.clearCookies();
    await page.goto('/login');
    await page.getByLabel('Email').fill(KEYED.email);
    await page.getByLabel('Password').fill(KEYED.password);
    await page.getByLabel('Password').press('Enter');
    await page.getByText('This account signs in with a passkey').first().waitFor();
    await page.getByRole('button', { name: 'Use a passkey instead' }).click();
    await page.waitForURL('**/client-dashboard');
    await context.close();
  });
});
