// The suites of the in-process suite that need an app of their own (own-app/: another
// configuration, or modules of the test's), in one file: each file of its own would load Nest and
// the application's modules again, and pay the one-time costs of a first start (docs/development.md,
// "Test run time"). Each suite starts its app in its beforeAll and closes it in its afterAll.
// One alone: `npx jest apps/api/src/own-app.spec.ts -t '<its describe>'`.
import './own-app/cors.spec';
import './own-app/draining.spec';
import './own-app/enforced-is-published.spec';
import './own-app/fuzz.spec';
import './own-app/idempotency-expiry.spec';
import './own-app/key-lookups.spec';
import './own-app/metrics-in-production.spec';
import './own-app/query-and-path.spec';
import './own-app/request-path.spec';
import './own-app/rate-limits.spec';
import './own-app/secure-by-default.spec';
import './own-app/trust-proxy.spec';
import './own-app/two-apps.spec';
