// The receiver loop's socket options (stream_pump.cc): read batching with
// SO_RCVLOWAT, and blocking reads bounded by SO_RCVTIMEO, each put back as it
// was when the loop ends. Why batching, and what it costs, is at the top of
// stream_pump.cc. On Windows both are no-ops: Windows TCP ignores SO_RCVLOWAT,
// and a timed-out blocking recv leaves a Winsock socket in an undefined state,
// so the Windows loop stays non-blocking and waits in WSAPoll().
#ifndef LH_RECEIVE_OPTIONS_H
#define LH_RECEIVE_OPTIONS_H

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "lh_net.h"
#include "lh_socket.h"

#ifndef _WIN32
#include <sys/time.h>
#endif

namespace lh {

constexpr uint64_t kBatchPeriodNs = 100'000'000;  // re-measure the rate every 100 ms
constexpr double kBatchHoldUs = 250;               // batch what arrives in 250 us

#ifndef _WIN32
// SO_RCVLOWAT for the rate measured over the last period (why: the top of stream_pump.cc).
class ReadBatcher {
 public:
  ReadBatcher(int fd, size_t readBytes) : fd_(fd), readBytes_(readBytes), periodStart_(net::MonoNs()) {}

  void Count(double n, uint64_t now) {
    periodBytes_ += n;
    if (now - periodStart_ >= kBatchPeriodNs) Adjust(now);
  }

  // After a receive timeout: the rate may have fallen.
  void Idle() {
    uint64_t now = net::MonoNs();
    if (now - periodStart_ >= kBatchPeriodNs) Adjust(now);
  }

  void Reset() {
    if (lowat_ != 1) Set(1);
  }

 private:
  void Adjust(uint64_t now) {
    double bytesPerUs = periodBytes_ / (static_cast<double>(now - periodStart_) / 1e3);
    periodStart_ = now;
    periodBytes_ = 0;
    int rcvbuf = 0;
    socklen_t len = sizeof rcvbuf;
    if (getsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &rcvbuf, &len) != 0) rcvbuf = 0;
    double cap = std::min(static_cast<double>(readBytes_), static_cast<double>(rcvbuf) / 16);
    int target = static_cast<int>(std::max(1.0, std::min(cap, bytesPerUs * kBatchHoldUs)));
    // Only a change of a quarter or more is worth a syscall.
    if (target == lowat_ || (target > lowat_ * 3 / 4 && target < lowat_ * 5 / 4 && target != 1)) return;
    Set(target);
  }

  void Set(int v) {
    if (setsockopt(fd_, SOL_SOCKET, SO_RCVLOWAT, &v, sizeof v) == 0) lowat_ = v;
  }

  int fd_;
  size_t readBytes_;
  uint64_t periodStart_;
  double periodBytes_ = 0;
  int lowat_ = 1;
};

// Blocking reads bounded by SO_RCVTIMEO; restores the socket's flags and options when it goes.
class BlockingReads {
 public:
  BlockingReads(int fd, int timeoutMs) : fd_(fd) {
    flags_ = fcntl(fd_, F_GETFL);
    socklen_t len = sizeof timeout_;
    hadTimeout_ = getsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout_, &len) == 0;
    timeval tv{timeoutMs / 1000, (timeoutMs % 1000) * 1000};
    ok_ = flags_ != -1 && setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) == 0 &&
          fcntl(fd_, F_SETFL, flags_ & ~O_NONBLOCK) == 0;
  }
  ~BlockingReads() {
    if (flags_ != -1) fcntl(fd_, F_SETFL, flags_);
    if (hadTimeout_) setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout_, sizeof timeout_);
  }
  // False: the socket stayed non-blocking and EAGAIN must wait in poll().
  bool ok() const { return ok_; }

 private:
  int fd_;
  int flags_ = -1;
  timeval timeout_{};
  bool hadTimeout_ = false;
  bool ok_ = false;
};

#else
// Windows TCP has no SO_RCVLOWAT: no batching, and the socket stays non-blocking (a timed-out
// blocking recv leaves a Winsock socket in an undefined state).
class ReadBatcher {
 public:
  ReadBatcher(net::Sock, size_t) {}
  void Count(double, uint64_t) {}
  void Idle() {}
  void Reset() {}
};
class BlockingReads {
 public:
  BlockingReads(net::Sock, int) {}
  bool ok() const { return false; }
};
#endif

}  // namespace lh

#endif  // LH_RECEIVE_OPTIONS_H
