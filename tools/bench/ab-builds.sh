#!/usr/bin/env bash
# Two builds side by side: OLD_DIR and NEW_DIR (checkouts with `npm run build` done), and any in
# MORE_DIRS, all on this checkout's Node, each with its own image's node flags (its Dockerfile's
# CMD), on one PostgreSQL database of 10k pets made for the run and dropped after. Each case at
# CONNECTIONS (64; wrk -t2) after a warm-up, 4 rounds: in ABBA order, or with TOGETHER=1 every build
# loaded at once by a wrk of its own (-t1), so that all meet the same moment of shared cores. Prints
# req/s, the service's CPU per request (from /proc) and p99 per run.
# See tools/bench/README.md.
#   OLD_DIR=/tmp/old NEW_DIR=. CASES="list20 get create" bash tools/bench/ab-builds.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
NODE=$ROOT/node_modules/.bin/node
# Each build runs with the node flags its own image gives (its Dockerfile's CMD).
image_flags() { # build
  "$NODE" --input-type=module -e "import { imageNodeFlags } from '$ROOT/tools/image/dockerfile.mjs'; console.log(imageNodeFlags('$1/Dockerfile').join(' '))"
}
REQUESTS=$(cd "$(dirname "$0")" && pwd)/wrk/requests.lua
KEY=bench-key-0123456789
DB=petstore_ab_$$
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
URL=postgres://$PGUSER@$PGHOST:$PGPORT/$DB
DIRS=("${OLD_DIR:?OLD_DIR: a checkout with npm run build done}" "${NEW_DIR:?NEW_DIR: a checkout with npm run build done}")
# shellcheck disable=SC2206
DIRS+=(${MORE_DIRS:-})
LABELS=(old new "${DIRS[@]:2}")
PORTS=()
for index in "${!DIRS[@]}"; do PORTS+=($((4001 + index))); done
# Each server's DATA_DIR, removed with the database.
SCRATCH=$(mktemp -d)
pid() { ss -ltnp "sport = :$1" | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2; }
cleanup() {
  for port in "${PORTS[@]}"; do kill "$(pid "$port")" 2> /dev/null || true; done
  sleep 1
  psql -d postgres -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)"
  rm -rf "$SCRATCH"
}
psql -d postgres -qc "CREATE DATABASE $DB"
trap cleanup EXIT
start() { # build port
  local flags
  flags=$(image_flags "$1")
  (cd "$1" && DATABASE_URL=$URL API_KEYS=$KEY RATE_LIMIT_PER_MINUTE=1000000000 LOG_LEVEL=warn NODE_ENV=production \
    METRICS_TOKEN=bench-metrics-token-0123 HOST=127.0.0.1 PORT=$2 DATA_DIR="$SCRATCH/$2" "$NODE" $flags dist/apps/api/src/main.js > /dev/null 2>&1 &)
  until curl -fs "http://127.0.0.1:$2/healthz" > /dev/null; do sleep 0.2; done
}
for index in "${!DIRS[@]}"; do start "${DIRS[index]}" "${PORTS[index]}"; done
psql -d "$DB" -qc "INSERT INTO pets (name, category_id, status) SELECT 'pet ' || n, n % 7, (ARRAY['available','pending','sold'])[1 + n % 3] FROM generate_series(1, 10000) n"
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }
THREADS=2
[ -n "${TOGETHER:-}" ] && THREADS=1
run() { # build-index case
  local target args
  case $2 in
    list20) target="/v1/pets?limit=20" args="" ;;
    list100) target="/v1/pets?limit=100" args="" ;;
    get) target="/" args="get 10000" ;;
    create) target="/v1/pets" args="create" ;;
  esac
  local port id before out after requests
  port=${PORTS[$1]}
  id=$(pid "$port")
  before=$(cpu "$id")
  # shellcheck disable=SC2086
  out=$(wrk -t$THREADS -c"${CONNECTIONS:-64}" -d"${SECONDS_PER_RUN:-8}"s --latency -H "Authorization: Bearer $KEY" -s "$REQUESTS" "http://127.0.0.1:$port$target" -- $args)
  after=$(cpu "$id")
  requests=$(echo "$out" | awk '/requests in/ {print $1}')
  # /proc counts clock ticks of 10 ms: 10000 µs each.
  echo "$2 ${LABELS[$1]} rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')" \
    "cpu_us_per_req=$(((after - before) * 10000 / requests)) p99=$(echo "$out" | awk '/ 99%/ {print $2}')"
}
# Every build at once, each answer printed in the builds' order.
together() { # case
  local index
  for index in "${!DIRS[@]}"; do run "$index" "$1" > "$SCRATCH/run.$index" & done
  wait
  for index in "${!DIRS[@]}"; do cat "$SCRATCH/run.$index"; done
}
# ABBA: which build goes first alternates, so that none always follows another's writes.
in_turn() { # round case
  local step index count=${#DIRS[@]}
  for ((step = 0; step < count; step++)); do
    if (($1 % 2)); then index=$step; else index=$((count - 1 - step)); fi
    run "$index" "$2"
  done
}
CASES=${CASES:-list20 get create}
for c in $CASES; do for index in "${!DIRS[@]}"; do run "$index" "$c" > /dev/null; done; done
for round in 1 2 3 4; do
  for c in $CASES; do if [ -n "${TOGETHER:-}" ]; then together "$c"; else in_turn "$round" "$c"; fi; done
done
