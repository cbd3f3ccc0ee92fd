#!/usr/bin/env bash
# Sets up the Windows lane (docs/windows-lane.md): the Windows node.exe under Wine and
# the addon cross-built for win32-x64, so `npm run test:windows` runs Longhaul's Windows
# code paths on this Linux machine. Idempotent: a second run only checks (a few seconds).
#   1. Debian packages: wine, mingw-w64 (posix threads), nsis (installed when root)
#   2. node.exe: the pinned official build, downloaded once, sha256-checked, cached
#      outside the repo (~/.cache/longhaul/windows-lane, or $LONGHAUL_WINDOWS_LANE_DIR)
#   3. the lane's own Wine prefix, created once (wineboot), and a node.exe smoke run
#   4. npm run build:native:win → native/prebuilds/win32-x64/node.napi.node
# Run after `npm ci` (it needs node_modules and dist/). Prints how long each step took.
set -euo pipefail
cd "$(dirname "$0")/../.."

APT_PACKAGES=(wine wine64 g++-mingw-w64-x86-64-posix binutils-mingw-w64-x86-64 nsis)

now() { date +%s%3N; }
secs() { local ms=$(($(now) - $1)); printf '%d.%d s' $((ms / 1000)) $((ms % 1000 / 100)); }
T_ALL=$(now)
T_STEP=$T_ALL
done_step() { echo "== windows lane: $1 ($(secs "$T_STEP"))"; T_STEP=$(now); }
fail() { echo "== windows lane: $*" >&2; exit 1; }

if [ "$(uname -s)" != Linux ]; then fail "runs on Linux only"; fi

# 1. Debian packages
missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  [ "$(id -u)" = 0 ] || fail "missing Debian packages (run as root to install them): ${missing[*]}"
  echo "== windows lane: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # Another apt may hold the lock (a parallel setup): wait for it, but not forever.
  apt-get -o DPkg::Lock::Timeout=600 update -qq
  apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
done_step "Debian packages"

# The lane's scripts are TypeScript compiled into dist/ (npm ci builds it; this covers a bare checkout).
if [ ! -f dist/scripts/windows-lane/lane.js ] || [ scripts/windows-lane/lane.ts -nt dist/scripts/windows-lane/lane.js ]; then
  npm run --silent build:node
  done_step "TypeScript build"
fi
lane() { node dist/scripts/windows-lane/lane.js --print "$1"; }

# 2. node.exe
node dist/scripts/windows-lane/fetch-node-exe.js
done_step "node.exe"

# 3. Wine prefix
export WINEPREFIX WINEDEBUG=-all WINEDLLOVERRIDES='mscoree,mshtml='
WINEPREFIX=$(lane prefix)
if [ ! -f "$WINEPREFIX/system.reg" ]; then
  rm -rf "$WINEPREFIX"
  mkdir -p "$(dirname "$WINEPREFIX")"
  # About 4 s here; five minutes ends a wineboot that hangs (it can wait for a GUI prompt).
  if ! timeout -k 10 300 wineboot -i >/dev/null 2>&1; then
    timeout 20 wineserver -k || true
    rm -rf "$WINEPREFIX"
    fail "wineboot could not create the Wine prefix $WINEPREFIX"
  fi
  timeout 60 wineserver -w || true
fi
[ "$(readlink "$WINEPREFIX/dosdevices/z:")" = / ] || fail "the prefix's Z: drive is not the Linux root ($WINEPREFIX/dosdevices/z:)"
# Smoke run: node.exe writes its platform to a file (a pipe would fail: EBADF under Wine).
smoke=$(mktemp)
NODE_SKIP_PLATFORM_CHECK=1 timeout -k 5 120 wine "$(lane node-exe)" -p "process.platform + ' ' + process.version" >"$smoke" 2>&1 </dev/null || true
grep -q "^win32 " "$smoke" || { cat "$smoke" >&2; rm -f "$smoke"; timeout 20 wineserver -k || true; fail "node.exe does not run under Wine"; }
echo "== windows lane: $(cat "$smoke") under $(wine --version)"
rm -f "$smoke"
done_step "Wine prefix"

# 4. The addon for win32-x64
node dist/scripts/windows-lane/build-native-win.js
done_step "addon build"

timeout 20 wineserver -k || true
echo "== windows lane: ready in $(secs "$T_ALL") (cache: $(lane dir))"
