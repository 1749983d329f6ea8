// The authenticated verify call through the gateway, at a fixed arrival rate, with latency thresholds.
// The same request as `npm run bench -- gateway`, for a longer soak or for a gateway on another host.
//
//   k6 run -e BASE_URL=http://127.0.0.1:3000 -e TOKEN=<session_token> infra/k6/gateway-verify.js
//
// Env: BASE_URL (the gateway, default http://127.0.0.1:3000), TOKEN (required: an administrator's
// session_token from POST /api/identity/admin/login), RATE (requests per second, default 1000),
// DURATION (default 30s), VUS (pre-allocated virtual users, default 50). See infra/k6/README.md.
import http from 'k6/http';
import { check } from 'k6';

const BASE_URL = (__ENV.BASE_URL || 'http://127.0.0.1:3000').replace(/\/+$/, '');
const TOKEN = __ENV.TOKEN;
if (!TOKEN) {
  throw new Error('TOKEN is required: an administrator session_token (see infra/k6/README.md)');
}
const RATE = Number(__ENV.RATE || 1000);
const VUS = Number(__ENV.VUS || 50);

export const options = {
  scenarios: {
    verify: {
      // open model: requests start at RATE per second whatever the answers' latency
      executor: 'constant-arrival-rate',
      rate: RATE,
      timeUnit: '1s',
      duration: __ENV.DURATION || '30s',
      preAllocatedVUs: VUS,
      maxVUs: VUS * 4,
    },
  },
  thresholds: {
    http_req_duration: ['p(99)<50'],
    http_req_failed: ['rate<0.001'],
    checks: ['rate>0.999'],
    // k6 could not keep the rate (too few VUs or a saturated machine): the run does not count
    dropped_iterations: ['count<1'],
  },
  summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(99)', 'max'],
};

const params = {
  headers: { Authorization: `Bearer ${TOKEN}` },
  tags: { name: 'GET /api/identity/admin/session' },
};

export default function () {
  const res = http.get(`${BASE_URL}/api/identity/admin/session`, params);
  check(res, {
    'status 200': (r) => r.status === 200,
    'session verified': (r) => r.status === 200 && r.json('success') === true,
  });
}
