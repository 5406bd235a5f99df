#!/usr/bin/env bash
# The one test command (`npm test`, and what .ci/run calls). It provisions what the
# suites need, caches it under ${CRAWLHUB_CACHE:-$HOME/.cache/crawlhub}, runs every tier,
# and says what it skipped and why:
#   1. dependencies (npm ci when node_modules is missing or stale) and the build
#   2. typecheck, lint (eslint.config.js: time and ids, floating promises), then the unit tier (specs beside the code)
#   3. real servers: a Kafka broker (test/infra/kafka.sh), a MongoDB wire-protocol
#      server (test/infra/mongodb.sh, or your own MONGODB_URI), the official Python
#      clients (test/compat/python-env.sh), Scrapy with sh_scrapy and scrapy-zyte-smartproxy
#      (test/compat/scrapy-env.sh), shub 2.18.1 (test/compat/shub-env.sh), curl, squid and chromium-headless-shell (apt-get, when missing;
#      CHROMIUM_PATH names another)
#   4. the integration tier on the embedded default (SQLite log and views), then again
#      with EVENT_LOG=kafka and with VIEW_STORE=mongodb for the suites that start a platform,
#      then the fleet suite (test/fleet/fleet-compose.test.ts: docker/compose.yaml's services
#      as 20 processes on Kafka and MongoDB together, killed and restarted under load; it needs
#      both servers and is skipped, saying so, without one)
# It ends with what it skipped and why (servers it could not provision, and each jest test
# skipped for a missing server or tool, with its reason), then each failed test with the
# head of its message, then one line "N passed, N failed, N skipped".
set -uo pipefail
cd "$(dirname "$0")/.."
export CRAWLHUB_CACHE="${CRAWLHUB_CACHE:-$HOME/.cache/crawlhub}"
mkdir -p "$CRAWLHUB_CACHE"
REPORTS="$(mktemp -d)"
SKIPPED=()
started=()

say() { echo "== $*"; }
cleanup() {
  for s in "${started[@]}"; do bash "test/infra/$s.sh" stop >/dev/null 2>&1 || true; done
  rm -rf "$REPORTS"
}
trap cleanup EXIT

# 1. dependencies and build
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing npm dependencies (npm ci)"
  npm ci --no-audit --no-fund || { echo "npm ci failed"; exit 1; }
fi
say "build"
npm run -s build || { echo "build failed"; exit 1; }

# 2. typecheck and unit tier
say "typecheck"
npx tsc -p tsconfig.json --noEmit || { echo "typecheck failed"; exit 1; }
say "lint (time and ids, floating promises: eslint.config.js)"
npm run -s lint || { echo "lint failed"; exit 1; }

run_jest() { # name, extra env..., -- jest args
  local name="$1"; shift
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  say "jest: $name"
  # --forceExit: fetch keep-alive sockets outlive the suites by a few seconds.
  env "${envs[@]}" npx jest --ci --forceExit --json --outputFile="$REPORTS/$name.json" "$@"
}

FAILED_RUNS=0
run_jest unit -- --selectProjects unit || FAILED_RUNS=$((FAILED_RUNS + 1))

# 3. real servers
provision() { # VAR message skip-label command... -> VAR from the command's "VAR=..." line
  # 0: provisioned now; 1: skipped (the reason joins SKIPPED); 2: VAR was given, nothing done.
  local var="$1" msg="$2" label="$3" out errors status=0
  shift 3
  [ -n "${!var:-}" ] && return 2
  say "$msg"
  errors=$(mktemp)
  # stderr is kept for the reason, then shown (a file, not a pipe: a server the script leaves
  # running in the background would hold a pipe open, and the run would wait on it forever).
  out=$("$@" 2>"$errors") || status=$?
  cat "$errors" >&2
  if [ "$status" = 0 ]; then
    printf -v "$var" '%s' "$(echo "$out" | sed -n "s/^$var=//p" | tail -1)"
  else
    # The reason: the script's last word on stdout, else its first on stderr (the server scripts
    # log there) with the exception that caused it, when a Java server names one.
    local why
    why=$(echo "$out" | sed '/^$/d' | tail -1)
    [ -n "$why" ] || why=$(echo "$(sed '/^$/d' "$errors" | head -1) $(grep -m1 -o 'Caused by: .*' "$errors" || true)" | sed 's/^ *//; s/ *$//')
    SKIPPED+=("$label: ${why:-exit status $status, no message}")
  fi
  rm -f "$errors"
  [ "$status" = 0 ] || return 1
}
apt_provide() { # package, what needs it, then a check command: installs the package when the check fails
  local package="$1" label="$2"
  shift 2
  "$@" >/dev/null 2>&1 && return 0
  say "installing $package with apt-get"
  { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y "$package"; } >/dev/null 2>&1 \
    || SKIPPED+=("$label: $package is not installed and apt-get failed")
}
apt_provide curl "curl -x checks of the proxy" command -v curl
apt_provide chromium-headless-shell "render pool suites (or set CHROMIUM_PATH)" test -n "${CHROMIUM_PATH:-}" -o -x /usr/lib/chromium/chromium-headless-shell
apt_provide squid "the proxy bench harness check (test/bench/loadgen.test.ts)" test -x /usr/sbin/squid
KAFKA_BROKERS="${KAFKA_BROKERS:-}" MONGODB_URI="${MONGODB_URI:-}" PYTHON_CLIENTS="${PYTHON_CLIENTS:-}" SCRAPY_PYTHON="${SCRAPY_PYTHON:-}" SHUB="${SHUB:-}"
# A server this run starts is stopped at its end; one that was already running (another run's,
# or a developer's) is reused and left running.
already_running() { bash "test/infra/$1.sh" status >/dev/null 2>&1 && echo yes; }
kafka_before=$(already_running kafka) mongodb_before=$(already_running mongodb)
provision KAFKA_BROKERS "starting Kafka (KRaft) from Maven Central artifacts" "Kafka lane" bash test/infra/kafka.sh start && [ -z "$kafka_before" ] && started+=(kafka)
provision MONGODB_URI "starting a MongoDB wire-protocol server" "MongoDB lane" bash test/infra/mongodb.sh start && [ -z "$mongodb_before" ] && started+=(mongodb)
provision PYTHON_CLIENTS "installing the official Python clients" "Python client compatibility" bash test/compat/python-env.sh
provision SCRAPY_PYTHON "installing Scrapy, sh_scrapy (scrapinghub-entrypoint-scrapy) and scrapy-zyte-smartproxy" "Scrapy spider through the runner and through the proxy" bash test/compat/scrapy-env.sh
provision SHUB "installing shub 2.18.1 (the Scrapy Cloud command line client)" "shub deploy compatibility" bash test/compat/shub-env.sh

# 4. integration tier: every suite on the embedded default (adapter suites use the servers above)
FLEET_SUITE=test/fleet/fleet-compose.test.ts
run_jest integration KAFKA_BROKERS="$KAFKA_BROKERS" MONGODB_URI="$MONGODB_URI" PYTHON_CLIENTS="$PYTHON_CLIENTS" SCRAPY_PYTHON="$SCRAPY_PYTHON" SHUB="$SHUB" -- \
  --selectProjects integration --runInBand --testPathIgnorePatterns "$FLEET_SUITE" || FAILED_RUNS=$((FAILED_RUNS + 1))
# The whole-platform suites again on the distributed adapters.
if [ -n "$KAFKA_BROKERS" ]; then
  run_jest e2e-kafka EVENT_LOG=kafka KAFKA_BROKERS="$KAFKA_BROKERS" SCRAPY_PYTHON="$SCRAPY_PYTHON" PYTHON_CLIENTS="$PYTHON_CLIENTS" -- --selectProjects integration --runInBand test/e2e \
    || FAILED_RUNS=$((FAILED_RUNS + 1))
fi
if [ -n "$MONGODB_URI" ]; then
  run_jest e2e-mongodb VIEW_STORE=mongodb MONGODB_URI="$MONGODB_URI" SCRAPY_PYTHON="$SCRAPY_PYTHON" PYTHON_CLIENTS="$PYTHON_CLIENTS" -- --selectProjects integration --runInBand test/e2e \
    || FAILED_RUNS=$((FAILED_RUNS + 1))
fi
# The fleet of docker/compose.yaml on both servers (its own run: it prints its figures).
run_jest fleet KAFKA_BROKERS="$KAFKA_BROKERS" MONGODB_URI="$MONGODB_URI" SCRAPY_PYTHON="$SCRAPY_PYTHON" -- \
  --selectProjects integration --runInBand "$FLEET_SUITE" || FAILED_RUNS=$((FAILED_RUNS + 1))

# Summary: the counts of each jest run, then what was skipped and why: the provisioning
# above, and each jest test skipped for a missing server or tool (test/support/skip.ts
# puts the reason in its title; a skip without one is listed too, so none goes unseen).
node -e '
const fs = require("fs"); const path = require("path"); const [dir, root] = process.argv.slice(1);
const MARK = " -- skipped: ";
let passed = 0, failed = 0, skipped = 0;
const reasons = new Map(); // "run: file: reason" -> tests
// Each failed test again at the end, with the head of its message: a long log is often
// cut in the middle, and the end is what is left to read.
const failures = [];
const firstLines = (text) => text.replace(/\x1b\[[0-9;]*m/g, "").split("\n").filter((l) => l.trim()).slice(0, 12).map((l) => "    " + l).join("\n");
for (const f of fs.readdirSync(dir).filter((f) => f.endsWith(".json"))) {
  const r = JSON.parse(fs.readFileSync(dir + "/" + f, "utf8"));
  const run = f.replace(".json", "");
  passed += r.numPassedTests; failed += r.numFailedTests + (r.numRuntimeErrorTestSuites || 0); skipped += r.numPendingTests + r.numTodoTests;
  console.log(`  ${run}: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped`);
  for (const suite of r.testResults) {
    if (suite.testExecError || (suite.status === "failed" && suite.assertionResults.length === 0)) failures.push(`failed: ${run}: ${path.relative(root, suite.name)}: the suite did not run\n${firstLines(suite.message || "")}`);
    for (const t of suite.assertionResults) {
      if (t.status === "failed") failures.push(`failed: ${run}: ${path.relative(root, suite.name)}: ${t.fullName}\n${firstLines(t.failureMessages.join("\n"))}`);
      if (t.status !== "pending" && t.status !== "todo") continue;
      const marked = [...t.ancestorTitles, t.title].find((title) => title.includes(MARK));
      const why = marked ? marked.slice(marked.indexOf(MARK) + MARK.length) : `no reason given ("${t.fullName}")`;
      const key = `${run}: ${path.relative(root, suite.name)}: ${why}`;
      reasons.set(key, (reasons.get(key) || 0) + 1);
    }
  }
}
fs.writeFileSync(dir + "/total", `${passed} ${failed} ${skipped}`);
fs.writeFileSync(dir + "/failed", failures.map((f) => f + "\n").join(""));
fs.writeFileSync(dir + "/skipped", [...reasons].map(([key, n]) => `${key} (${n} test${n === 1 ? "" : "s"})\n`).join(""));
' "$REPORTS" "$PWD"
read -r P F S < "$REPORTS/total"
for s in "${SKIPPED[@]}"; do echo "skipped: $s"; done
while IFS= read -r s; do echo "skipped: $s"; done < "$REPORTS/skipped"
cat "$REPORTS/failed"
echo "$P passed, $F failed, $S skipped"
[ "$FAILED_RUNS" -eq 0 ] && [ "$F" -eq 0 ]
