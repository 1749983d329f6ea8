// A mixed workload through the gateway, as a practice's day looks: visitors on the public pages, people
// signing in, staff listing and searching clients, a client's document upload, and every signed-in
// back-office page asking for its unread-notification count. Open model (constant arrival rate per
// scenario), so a slow answer does not slow the offered load down.
//
//   k6 run -e BASE_URL=http://127.0.0.1:3000 -e ADMIN_USERNAME=admin -e ADMIN_PASSWORD=... infra/k6/mixed.js
//
// Env: BASE_URL (default http://127.0.0.1:3000), ADMIN_USERNAME (default admin), ADMIN_PASSWORD
// (required), RATE (total requests per second, default 40, split as in MIX below), DURATION (default
// 60s), SUMMARY (a path: the end-of-test summary as JSON, which `npm run bench -- k6` reads).
// Thresholds (issue #20): p95 < 200 ms, p99 < 400 ms, failed requests < 0.1 %. k6 exits non-zero
// when one fails. The gateway's sign-in limit must allow the sign-in scenario's rate
// (SIGN_IN_RATE_LIMIT); the bench sets it.
import http from 'k6/http';
import { check, fail } from 'k6';

const BASE_URL = (__ENV.BASE_URL || 'http://127.0.0.1:3000').replace(/\/+$/, '');
const ADMIN_USERNAME = __ENV.ADMIN_USERNAME || 'admin';
const ADMIN_PASSWORD = __ENV.ADMIN_PASSWORD;
if (!ADMIN_PASSWORD) throw new Error('ADMIN_PASSWORD is required (the first administrator of the product under test)');
const RATE = Number(__ENV.RATE || 40);
const DURATION = __ENV.DURATION || '60s';

/** Share of RATE per scenario; sign-in is a password hash per request, so it is kept rare, as in life. */
const MIX = { publicPages: 0.35, clients: 0.3, notifications: 0.25, upload: 0.05, signIn: 0.05 };

/**
 * The aims (issue #20). SMOKE=1 (the test suite's short run on a busy machine) keeps every check and the
 * zero-failure aim but not the latency ones, which belong to a measured run (`npm run bench -- k6`).
 */
const AIM = __ENV.SMOKE === '1' ? { p95: 60_000, p99: 60_000, dropped: 1_000_000 } : { p95: 200, p99: 400, dropped: 1 };

function scenario(exec, share) {
  const rate = Math.max(1, Math.round(RATE * share));
  return {
    executor: 'constant-arrival-rate',
    exec,
    rate,
    timeUnit: '1s',
    duration: DURATION,
    preAllocatedVUs: Math.max(2, rate),
    maxVUs: Math.max(10, rate * 5),
    tags: { scenario: exec },
  };
}

export const options = {
  scenarios: {
    publicPages: scenario('publicPages', MIX.publicPages),
    clients: scenario('clients', MIX.clients),
    notifications: scenario('notifications', MIX.notifications),
    upload: scenario('upload', MIX.upload),
    signIn: scenario('signIn', MIX.signIn),
  },
  thresholds: {
    http_req_duration: [`p(95)<${AIM.p95}`, `p(99)<${AIM.p99}`],
    http_req_failed: ['rate<0.001'],
    checks: ['rate>0.999'],
    // k6 could not keep the offered rate (too few VUs or a saturated machine): stated in the figures
    dropped_iterations: [`count<${AIM.dropped}`],
    // per scenario, so the figures say which part of the mix is slow (the aims are the overall ones)
    'http_req_duration{scenario:publicPages}': [`p(95)<${AIM.p95}`],
    'http_req_duration{scenario:clients}': [`p(95)<${AIM.p95}`],
    'http_req_duration{scenario:notifications}': [`p(95)<${AIM.p95}`],
    'http_req_duration{scenario:upload}': [`p(95)<${AIM.p95}`],
    'http_req_duration{scenario:signIn}': [`p(95)<${AIM.p99}`],
  },
  summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
};

function signInAdmin() {
  const res = http.post(`${BASE_URL}/api/identity/admin/login`, JSON.stringify({ username: ADMIN_USERNAME, password: ADMIN_PASSWORD }), {
    headers: { 'content-type': 'application/json' },
    tags: { name: 'POST /api/identity/admin/login' },
  });
  return res;
}

export function setup() {
  const res = signInAdmin();
  if (res.status !== 200) fail(`admin sign-in answered ${res.status}: ${res.body}`);
  const token = res.json('session_token');
  const auth = { headers: { authorization: `Bearer ${token}` } };
  const clients = http.get(`${BASE_URL}/api/crm/clients?page=1&page_size=20`, auth);
  if (clients.status !== 200) fail(`client list answered ${clients.status}`);
  const list = clients.json('clients') || [];
  if (!list.length) fail('the product has no clients: start it with SEED_DEMO=true');
  return { token, clientIds: list.map((c) => c.id) };
}

const SEARCHES = ['ltd', 'bakery', 'smith', 'consult', 'north', 'zz-no-match'];

export function publicPages() {
  const r = [
    http.get(`${BASE_URL}/`, { tags: { name: 'GET /' } }),
    http.get(`${BASE_URL}/api/billing/packages`, { tags: { name: 'GET /api/billing/packages' } }),
    http.get(`${BASE_URL}/api/settings/public`, { tags: { name: 'GET /api/settings/public' } }),
  ][Math.floor(Math.random() * 3)];
  check(r, { 'public page 200': (x) => x.status === 200 });
}

export function clients(data) {
  const auth = { headers: { authorization: `Bearer ${data.token}` } };
  const search = Math.random() < 0.5 ? `&search=${SEARCHES[Math.floor(Math.random() * SEARCHES.length)]}` : '';
  const r = http.get(`${BASE_URL}/api/crm/clients?page=1&page_size=20${search}`, {
    ...auth,
    tags: { name: search ? 'GET /api/crm/clients?search' : 'GET /api/crm/clients' },
  });
  check(r, { 'client list 200': (x) => x.status === 200 });
}

export function notifications(data) {
  const r = http.get(`${BASE_URL}/api/notifications/unread-count`, {
    headers: { authorization: `Bearer ${data.token}` },
    tags: { name: 'GET /api/notifications/unread-count' },
  });
  check(r, { 'unread count 200': (x) => x.status === 200 });
}

// A small PDF (a bank statement is typically tens of kB): a valid header, then filler.
const PDF = `%PDF-1.4\n%k6\n${' '.repeat(20 * 1024)}`;

/**
 * The multipart body by hand, fields first: the documents service streams each file to storage as it
 * arrives, so it needs to know the client and the type before the first file (as the browser's
 * FormData sends them). k6's object form has no fixed field order.
 */
function multipart(fields, file) {
  const boundary = `----k6${Math.random().toString(16).slice(2)}`;
  let body = '';
  for (const [k, v] of Object.entries(fields)) body += `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  body += `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n${file.data}\r\n`;
  body += `--${boundary}--\r\n`;
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

export function upload(data) {
  const clientId = data.clientIds[Math.floor(Math.random() * data.clientIds.length)];
  const { body, contentType } = multipart(
    { client_id: clientId, document_type: 'general' },
    { name: `k6-${__VU}-${__ITER}.pdf`, type: 'application/pdf', data: PDF },
  );
  const r = http.post(`${BASE_URL}/api/documents`, body, {
    headers: { authorization: `Bearer ${data.token}`, 'content-type': contentType },
    tags: { name: 'POST /api/documents' },
  });
  if (!check(r, { 'upload 201': (x) => x.status === 201 })) console.warn(`upload answered ${r.status}: ${String(r.body).slice(0, 300)}`);
}

export function signIn() {
  const r = signInAdmin();
  check(r, { 'sign-in 200': (x) => x.status === 200 });
}

export function handleSummary(data) {
  const out = { stdout: textSummary(data) };
  if (__ENV.SUMMARY) out[__ENV.SUMMARY] = JSON.stringify(data);
  return out;
}

/** A short plain summary (k6's own needs a remote module, which these machines cannot fetch). */
function textSummary(data) {
  const d = data.metrics.http_req_duration.values;
  const failed = data.metrics.http_req_failed.values.rate;
  const lines = [
    `requests: ${data.metrics.http_reqs.values.count} (${data.metrics.http_reqs.values.rate.toFixed(1)}/s)`,
    `latency ms: p50 ${d.med.toFixed(1)}  p95 ${d['p(95)'].toFixed(1)}  p99 ${d['p(99)'].toFixed(1)}  max ${d.max.toFixed(1)}`,
    `failed: ${(failed * 100).toFixed(3)} %`,
  ];
  const walk = (g) => {
    for (const c of g.checks || []) if (c.fails) lines.push(`check "${c.name}": ${c.fails} failed of ${c.passes + c.fails}`);
    for (const sub of g.groups || []) walk(sub);
  };
  walk(data.root_group);
  for (const [name, m] of Object.entries(data.metrics)) {
    if (m.thresholds) for (const [t, r] of Object.entries(m.thresholds)) lines.push(`threshold ${name} ${t}: ${r.ok ? 'met' : 'NOT met'}`);
  }
  return lines.join('\n') + '\n';
}
