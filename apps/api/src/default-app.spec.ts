// The suites of the in-process suite that need nothing but the default settings, on one app
// (defaultApp): each file of its own would start Nest and PGlite again, about 2 s of CPU each. Every
// suite tells its data apart (its own pets and keys), as on a shared server. One alone:
// `npx jest apps/api/src/default-app.spec.ts -t '<its describe>'`.
import './default-app/authentication.spec';
import './default-app/client.spec';
import './default-app/conditional-get.spec';
import './default-app/create-pet.spec';
import './default-app/get-pet.spec';
import './default-app/http.spec';
import './default-app/list-pets.spec';
import './default-app/query-and-path.spec';
import './default-app/security.spec';
