// The suites of the in-process suite that can share an app (shared-app/), on one: each file of its
// own would start Nest and PGlite again, about 2 s of CPU each. Every suite tells its data apart
// (its own pets and Idempotency-Keys), as on a shared server. One alone:
// `npx jest apps/api/src/shared-app.spec.ts -t '<its describe>'`.
import './shared-app/authentication.spec';
import './shared-app/client.spec';
import './shared-app/conditional-get.spec';
import './shared-app/create-pet.spec';
import './shared-app/get-pet.spec';
import './shared-app/http.spec';
import './shared-app/idempotency.spec';
import './shared-app/list-pets.spec';
import './shared-app/metrics.spec';
import './shared-app/security.spec';
