#!/usr/bin/env bash
# Reproduces the seed's satellite case on an emulated link and prints the
# verdict: two network namespaces of our own joined by a veth pair, netem
# delay 650 ms each way (RTT 1.3 s; needs netem) and rate 4 Mbit/s, then
# `longhaul run --window 8760` from one to the other. Needs root, ip, tc and
# netem. Traffic never leaves the two namespaces; both are deleted on exit.
#   usage: sudo bash scripts/measure-seed-wan.sh [WINDOW=8760|os] [SECONDS=20]   (os: OS default window)
set -euo pipefail
cd "$(dirname "$0")/.."
WINDOW="${1:-8760}"
SECONDS_RUN="${2:-20}"
TAG="lhn$$"
A="${TAG}-a"
B="${TAG}-b"
OUT="${OUT:-/tmp/${TAG}-result.json}"
LISTEN_PID=""

cleanup() {
  [ -n "$LISTEN_PID" ] && kill "$LISTEN_PID" 2>/dev/null || true
  ip netns del "$A" 2>/dev/null || true
  ip netns del "$B" 2>/dev/null || true
}
trap cleanup EXIT INT TERM

ip netns add "$A"
ip netns add "$B"
ip link add "${TAG}a" type veth peer name "${TAG}b"
ip link set "${TAG}a" netns "$A"
ip link set "${TAG}b" netns "$B"
ip -n "$A" addr add 10.213.0.1/24 dev "${TAG}a"
ip -n "$B" addr add 10.213.0.2/24 dev "${TAG}b"
for ns in "$A" "$B"; do ip -n "$ns" link set lo up; done
ip -n "$A" link set "${TAG}a" up
ip -n "$B" link set "${TAG}b" up
# 650 ms each way = 1.3 s RTT; 4 Mbit/s each way, as the seed's satellite link.
# Kernels without netem (sch_netem) get the rate only, through tbf: said loudly.
for pair in "$A:${TAG}a" "$B:${TAG}b"; do
  ns="${pair%%:*}"; dev="${pair#*:}"
  if ! tc -n "$ns" qdisc add dev "$dev" root netem delay 650ms rate 4mbit limit 10000 2>/dev/null; then
    echo "== netem is not available in this kernel: NO DELAY, rate 4 Mbit/s only (tbf)" >&2
    tc -n "$ns" qdisc add dev "$dev" root tbf rate 4mbit burst 16kb latency 300ms
  fi
done

timeout 120 ip netns exec "$A" node bin/longhaul.js listen --bind 10.213.0.1 --port 5211 --once >/dev/null &
LISTEN_PID=$!
sleep 1
WINDOW_ARGS=(--window "$WINDOW")
[ "$WINDOW" = os ] && WINDOW_ARGS=()
timeout 120 ip netns exec "$B" node bin/longhaul.js run 10.213.0.1:5211 "${WINDOW_ARGS[@]}" --seconds "$SECONDS_RUN" --interval 2 --json "$OUT" || true
echo "result: $OUT"
