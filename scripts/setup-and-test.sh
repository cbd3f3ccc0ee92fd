#!/usr/bin/env bash
# Sets up everything the tests need on a fresh Debian machine, then runs them.
#   - Debian packages (only when run as root; otherwise says what is missing)
#   - npm packages (npm ci; Electron's binary is optional and never downloaded)
#   - the TypeScript build
#   - the Windows lane: node.exe under Wine and the addon built for win32-x64
#     (scripts/windows-lane/setup.sh, docs/windows-lane.md)
#   - the test suite
# This is the README's test command and exactly what CI runs (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(iperf3 iproute2 iptables ethtool libnetfilter-queue-dev gcc g++ make python3 chromium iputils-ping procps util-linux p7zip-full poppler-utils prometheus)

missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "== installing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "== missing Debian packages (run as root to install them): ${missing[*]}" >&2
  fi
fi

echo "== npm ci"
# node-gyp must use the headers Node ships in /usr/include/node: it cannot download them here.
export npm_config_nodedir="${npm_config_nodedir:-/usr}"
npm ci --no-audit --no-fund

echo "== Windows lane"
# Without it the test/windows/ tests skip, saying why; under CI they fail instead.
bash scripts/windows-lane/setup.sh || echo "== Windows lane not set up (see above): its tests will skip, or fail under CI" >&2

echo "== tests"
npm test
