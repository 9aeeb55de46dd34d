# syntax=docker/dockerfile:1
# The current Active LTS (Node 26, LTS since 2026-10-28), on Debian 13: bookworm left Debian's
# regular security support in 2026-06. CI runs the tests on the same Node line (.ci/run reads
# this line) and builds this file set without Docker (tools/image/check-entry-points.mjs).
ARG NODE_IMAGE=node:26.10-trixie-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci
COPY tsconfig*.json .swcrc nx.json ./
# Every source folder of `npm run build` (tools/build/build.mjs), which fails if one is missing.
COPY apps ./apps
COPY libs ./libs
COPY tools/build ./tools/build
COPY tools/keys ./tools/keys
RUN npm run build && npm prune --omit=dev

FROM ${NODE_IMAGE}
ENV NODE_ENV=production
# The commit the image is built from, for /metrics's petstore_build_info (docs/operations.md, "Metrics"):
# docker build --build-arg GIT_COMMIT=$(git rev-parse HEAD) . Without it, empty: the service says "unknown".
ARG GIT_COMMIT
ENV GIT_COMMIT=${GIT_COMMIT}
WORKDIR /app
# Without DATABASE_URL the embedded database writes under DATA_DIR (.data), so the
# unprivileged user must own it, and no other user may enter it (else the service tightens it, warning).
RUN mkdir -m 700 .data && chown node:node .data
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# Node's compile cache (apps/api/src/compile-cache.ts), filled here by --help, which loads every
# module the service imports, then the tracing SDK's too (loaded when an OTEL_* variable is set;
# disabled, it starts nothing). It runs as the user the service runs as, since Node keeps a directory
# per user, and with the CMD's node flags, since V8 keys its code cache by its flags (the image check
# fails otherwise); the cache is then handed to root, readable and not writable by that user.
RUN mkdir -p node_modules/.cache/node-compile-cache && chown node:node node_modules/.cache/node-compile-cache \
  && su node -s /bin/sh -c 'node --heap-growing-percent=50 --no-allocation-site-pretenuring dist/apps/api/src/main.js --help > /dev/null \
    && OTEL_SDK_DISABLED=true node --heap-growing-percent=50 --no-allocation-site-pretenuring dist/apps/api/src/main.js --help > /dev/null' \
  && chown -R root:root node_modules/.cache/node-compile-cache && chmod -R a+rX,go-w node_modules/.cache/node-compile-cache
USER node
EXPOSE 3000
# Slim images have no curl: ask node itself.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# V8's flags, given where V8 takes them: the old generation grows to 1.5 times what survived the
# last full collection, not up to 4 times (docs/performance.md, "Memory"); and no object is
# allocated straight into it, since V8 took a request's objects there and full collections then
# held up answers (docs/performance.md, "Tail latency"). The bench runs the service with these.
CMD ["node", "--heap-growing-percent=50", "--no-allocation-site-pretenuring", "dist/apps/api/src/main.js"]
