// Longhaul's own pacing of one sending stream (`--bitrate`), for where the kernel cannot pace
// a socket (SO_MAX_PACING_RATE is Linux's): a token bucket in bytes. Tokens fill at the asked
// rate and are capped at `burst` bytes, so after an idle moment (a full socket, a slow turn
// of the shared sender thread) the stream catches up by at most one burst, never by seconds.
//
// The sender asks how many bytes it may hand to send() now (Allow), says how many it did
// (Spent), and, when the answer was 0, how long until it may send again (WaitNs).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace lh {

class Pacer {
 public:
  // The burst: 10 ms of the rate, at least 1,500 bytes (one Ethernet frame's payload and more)
  // and at most 4 MiB. Short enough that the rate holds over every 100 ms interval a run
  // reports, long enough that a 1 ms sleep granularity still reaches the rate.
  static constexpr double kBurstSeconds = 0.010;
  static constexpr double kMinBurstBytes = 1500;
  static constexpr double kMaxBurstBytes = 4.0 * 1024 * 1024;

  Pacer() = default;
  Pacer(double bytesPerSec, uint64_t nowNs)
      : rate_(bytesPerSec),
        burst_(std::min(kMaxBurstBytes, std::max(kMinBurstBytes, bytesPerSec * kBurstSeconds))),
        tokens_(burst_),
        lastNs_(nowNs) {}

  bool on() const { return rate_ > 0; }

  // Bytes that may go to send() now, at most `want`. 0: wait (WaitNs says how long). A send
  // waits until half a burst (or the whole of `want`, if smaller) has filled, so a paced
  // stream makes few large sends rather than many tiny ones, and a sleep that overruns by
  // up to half a burst's time loses no tokens to the cap (a whole burst lost ~3 % at 1 ms).
  size_t Allow(uint64_t nowNs, size_t want) {
    if (!on()) return want;
    Refill(nowNs);
    if (tokens_ < Need(want)) return 0;
    return static_cast<size_t>(std::min(static_cast<double>(want), tokens_));
  }

  void Spent(size_t bytes) {
    if (on()) tokens_ -= static_cast<double>(bytes);
  }

  // Nanoseconds until Allow(…, want) is above 0.
  uint64_t WaitNs(uint64_t nowNs, size_t want) {
    if (!on()) return 0;
    Refill(nowNs);
    double need = Need(want) - tokens_;
    return need <= 0 ? 0 : static_cast<uint64_t>(need / rate_ * 1e9) + 1;
  }

 private:
  double Need(size_t want) const { return std::min(static_cast<double>(want), burst_ / 2); }

  void Refill(uint64_t nowNs) {
    if (nowNs > lastNs_) tokens_ = std::min(burst_, tokens_ + rate_ * static_cast<double>(nowNs - lastNs_) / 1e9);
    lastNs_ = nowNs;
  }

  double rate_ = 0;  // bytes per second; 0: not paced
  double burst_ = 0;
  double tokens_ = 0;
  uint64_t lastNs_ = 0;
};

}  // namespace lh
