// A UDP stream's sender off the JS thread (issue 38: "sender pacing exact to ±2 % of -b up to
// 1 Gbit/s"): Longhaul's datagrams, paced at the asked rate, handed to the kernel in batches with
// sendmmsg(2) where the OS has it (Linux), one send(2) each elsewhere on POSIX. Node's dgram made a
// JS call, a libuv request and a callback per datagram: on loopback here it topped out near
// 780 Mbit/s of 1,460-byte datagrams and the answer had to blame this PC's CPU.
//
// The JS side (electron/engine/data-plane/udp/udp-sender.ts) owns the socket, connects it and
// reads this loop's counters; the loop works on its own dup() of the socket. The rules are the JS
// sender's, so a result reads the same whichever loop moved the datagrams:
// - the header is datagram.ts's Longhaul header (32 bytes, big-endian: 'LHU1', stream id, sequence
//   number from 1, the send time on the monotonic clock uv_hrtime() = process.hrtime, the cookie's
//   first 8 bytes); every datagram of a batch carries the time the batch was built;
// - the pacing is udp-pacer.ts's (the spec): datagrams are due at the rate since the first turn; a
//   late loop makes up at most the datagram due plus kCatchUpSeconds of the rate, the rest is
//   written off as short (the PC could not send it in time); at the deadline, whole datagrams due
//   and not sent are short too;
// - a send the OS refuses with ECONNREFUSED (an ICMP from the peer's port) or ENOBUFS/EAGAIN is
//   not sent: the former is counted in sendErrors and its number used, the latter waits (bounded by
//   kPollMs) while the schedule runs on.
// Windows: not built (the JS sender runs; udpSendSupported is false).
#include <napi.h>

#include "lh_pump_state.h"
#include "lh_thread_name.h"

#ifndef _WIN32
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "lh_net.h"
#include "lh_thread_cpu.h"

namespace lh {
namespace {

constexpr size_t kHeaderBytes = 32;
constexpr uint32_t kMagic = 0x4c485531;  // 'LHU1'
constexpr double kCatchUpSeconds = 0.020;  // udp-pacer.ts CATCH_UP_SECONDS
constexpr size_t kBatch = 64;              // datagrams per sendmmsg at most

struct UdpSendState {
  int fd = -1;
  size_t datagramBytes = 0;
  double bytesPerSec = 0;
  uint64_t deadlineNs = 0;   // 0: none
  int64_t budgetBytes = -1;  // -1: none
  uint32_t streamId = 0;
  uint8_t tag[8] = {};
  std::atomic<double> datagrams{0};
  std::atomic<double> bytes{0};
  std::atomic<double> shortBytes{0};
  std::atomic<double> sendErrors{0};
  std::atomic<double> seq{0};
  std::atomic<uint64_t> firstNs{0};
  std::atomic<uint64_t> lastNs{0};
  std::atomic<int64_t> cpuStartNs{-1};
  std::atomic<int64_t> cpuEndNs{-1};
  std::atomic<bool> stop{false};
  std::atomic<bool> running{true};
  int lastSendErrno = 0;
  EndReason reason = EndReason::kNone;
  int err = 0;
  const char* where = "";
  Napi::ThreadSafeFunction done;
};

// udp-pacer.ts in C++: bytes due since the start, capped at one datagram plus kCatchUpSeconds of the rate.
class DatagramPacer {
 public:
  DatagramPacer(double bytesPerSec, double datagramBytes, uint64_t startNs) : rate_(bytesPerSec), size_(datagramBytes), lastNs_(startNs) {}

  uint64_t Due(uint64_t nowNs) {
    if (nowNs > lastNs_) {
      due_ += rate_ * static_cast<double>(nowNs - lastNs_) / 1e9;
      lastNs_ = nowNs;
    }
    double cap = size_ + rate_ * kCatchUpSeconds;
    if (due_ > cap) {
      short_ += due_ - cap;
      due_ = cap;
    }
    return static_cast<uint64_t>(std::floor(due_ / size_));
  }
  void Sent(uint64_t n) { due_ -= static_cast<double>(n) * size_; }
  void Finish(uint64_t endNs) {
    Due(endNs);
    double owed = std::floor(due_ / size_) * size_;
    short_ += owed;
    due_ -= owed;
  }
  uint64_t WaitNs() const {
    double need = size_ - due_;
    return need <= 0 ? 0 : static_cast<uint64_t>(need / rate_ * 1e9) + 1;
  }
  double shortBytes() const { return short_; }

 private:
  double rate_, size_, due_ = 0, short_ = 0;
  uint64_t lastNs_;
};

void PutU32(uint8_t* p, uint32_t v) {
  p[0] = static_cast<uint8_t>(v >> 24);
  p[1] = static_cast<uint8_t>(v >> 16);
  p[2] = static_cast<uint8_t>(v >> 8);
  p[3] = static_cast<uint8_t>(v);
}
void PutU64(uint8_t* p, uint64_t v) {
  PutU32(p, static_cast<uint32_t>(v >> 32));
  PutU32(p + 4, static_cast<uint32_t>(v));
}

void SleepNs(uint64_t ns) {
  if (ns == 0) return;
  struct timespec t;
  t.tv_sec = static_cast<time_t>(ns / 1000000000ULL);
  t.tv_nsec = static_cast<long>(ns % 1000000000ULL);
  nanosleep(&t, nullptr);
}

// Hand `n` datagrams (headers written) to the kernel; returns how many it took, or -1 with errno.
int SendBatch(int fd, std::vector<uint8_t>& bufs, size_t size, size_t n) {
#ifdef __linux__
  struct mmsghdr msgs[kBatch];
  struct iovec iov[kBatch];
  for (size_t i = 0; i < n; i++) {
    iov[i].iov_base = bufs.data() + i * size;
    iov[i].iov_len = size;
    std::memset(&msgs[i], 0, sizeof msgs[i]);
    msgs[i].msg_hdr.msg_iov = &iov[i];
    msgs[i].msg_hdr.msg_iovlen = 1;
  }
  return ::sendmmsg(fd, msgs, static_cast<unsigned>(n), 0);
#else
  size_t i = 0;
  for (; i < n; i++) {
    if (::send(fd, bufs.data() + i * size, size, 0) < 0) return i > 0 ? static_cast<int>(i) : -1;
  }
  return static_cast<int>(i);
#endif
}

void Run(UdpSendState* s) {
  const size_t size = s->datagramBytes;
  std::vector<uint8_t> bufs(kBatch * size, 0x5a);
  for (size_t i = 0; i < kBatch; i++) {
    uint8_t* b = bufs.data() + i * size;
    PutU32(b, kMagic);
    PutU32(b + 4, s->streamId);
    std::memcpy(b + 24, s->tag, 8);
  }
  uint64_t start = net::MonoNs();
  s->firstNs.store(start, std::memory_order_relaxed);
  DatagramPacer pacer(s->bytesPerSec, static_cast<double>(size), start);
  uint64_t seq = 0;
  double datagrams = 0, sendErrors = 0;
  for (;;) {
    if (s->stop.load(std::memory_order_relaxed)) { s->reason = EndReason::kStopped; break; }
    uint64_t now = net::MonoNs();
    if (s->deadlineNs != 0 && now >= s->deadlineNs) {
      pacer.Finish(s->deadlineNs);
      s->reason = EndReason::kDeadline;
      break;
    }
    uint64_t n = std::min<uint64_t>(pacer.Due(now), kBatch);
    if (s->budgetBytes >= 0) {
      uint64_t left = static_cast<uint64_t>(s->budgetBytes) / size - std::min<uint64_t>(seq, static_cast<uint64_t>(s->budgetBytes) / size);
      if (left == 0) { s->reason = EndReason::kBudget; break; }
      n = std::min(n, left);
    }
    s->shortBytes.store(pacer.shortBytes(), std::memory_order_relaxed);
    if (n == 0) {
      uint64_t wait = std::min<uint64_t>(pacer.WaitNs(), static_cast<uint64_t>(kPollMs) * 1000000ULL);
      if (s->deadlineNs != 0) wait = std::min(wait, s->deadlineNs - now);
      SleepNs(wait);
      continue;
    }
    for (uint64_t i = 0; i < n; i++) {
      uint8_t* b = bufs.data() + i * size;
      PutU64(b + 8, seq + i + 1);
      PutU64(b + 16, now);
    }
    int sent = SendBatch(s->fd, bufs, size, static_cast<size_t>(n));
    if (sent > 0) {
      seq += static_cast<uint64_t>(sent);
      datagrams += sent;
      pacer.Sent(static_cast<uint64_t>(sent));
      s->lastNs.store(now, std::memory_order_relaxed);
      s->datagrams.store(datagrams, std::memory_order_relaxed);
      s->bytes.store(datagrams * static_cast<double>(size), std::memory_order_relaxed);
      s->seq.store(static_cast<double>(seq), std::memory_order_relaxed);
      continue;
    }
    int e = errno;
    if (e == EINTR) continue;
    if (e == EAGAIN || e == EWOULDBLOCK || e == ENOBUFS) {
      net::WaitOne(s->fd, net::kPollOut, kPollMs);
      continue;
    }
    if (e == ECONNREFUSED) {
      // The peer's port answered an earlier datagram with an ICMP: this one is not sent, its number is used (as the JS sender's).
      seq += 1;
      pacer.Sent(1);
      sendErrors += 1;
      s->lastSendErrno = e;
      s->seq.store(static_cast<double>(seq), std::memory_order_relaxed);
      s->sendErrors.store(sendErrors, std::memory_order_relaxed);
      continue;
    }
    s->reason = EndReason::kError;
    s->err = e;
    s->where = "sendmmsg";
    break;
  }
  s->shortBytes.store(pacer.shortBytes(), std::memory_order_relaxed);
}

const char* ReasonName(EndReason r) {
  switch (r) {
    case EndReason::kBudget: return "budget";
    case EndReason::kDeadline: return "deadline";
    case EndReason::kStopped: return "stopped";
    case EndReason::kError: return "error";
    default: return "none";
  }
}

void RunThread(std::shared_ptr<UdpSendState> s) {
  NameThisThread("lh-udp-send");
  s->cpuStartNs.store(ThreadCpuNs(), std::memory_order_relaxed);
  Run(s.get());
  s->cpuEndNs.store(ThreadCpuNs(), std::memory_order_relaxed);
  ::close(s->fd);
  s->fd = -1;
  s->running.store(false, std::memory_order_release);
  s->done.BlockingCall([s](Napi::Env env, Napi::Function cb) {
    Napi::Value e = env.Null();
    if (s->reason == EndReason::kError) {
      Napi::Error x = Napi::Error::New(env, std::string(s->where) + ": " + std::strerror(s->err));
      x.Set("errno", Napi::Number::New(env, s->err));
      x.Set("syscall", Napi::String::New(env, s->where));
      e = x.Value();
    }
    cb.Call({e, Napi::String::New(env, ReasonName(s->reason))});
  });
  s->done.Release();
}

// new UdpSend(fd, { datagramBytes, bytesPerSec, streamId, tag (Buffer, 8 B), deadlineNs (bigint, process.hrtime; absent: none),
//                   budgetBytes (absent: none) }, onDone(err, reason))
class UdpSend : public Napi::ObjectWrap<UdpSend> {
 public:
  static Napi::Function Define(Napi::Env env) {
    return DefineClass(env, "UdpSend", {InstanceMethod<&UdpSend::Snapshot>("snapshot"), InstanceMethod<&UdpSend::Stop>("stop")});
  }

  explicit UdpSend(const Napi::CallbackInfo& info) : Napi::ObjectWrap<UdpSend>(info) {
    Napi::Env env = info.Env();
    if (info.Length() < 3 || !info[0].IsNumber() || !info[1].IsObject() || !info[2].IsFunction()) {
      Napi::TypeError::New(env, "new UdpSend(fd, options, onDone): fd, options object and callback expected").ThrowAsJavaScriptException();
      return;
    }
    Napi::Object o = info[1].As<Napi::Object>();
    Napi::Value size = o.Get("datagramBytes");
    Napi::Value rate = o.Get("bytesPerSec");
    Napi::Value tag = o.Get("tag");
    Napi::Value id = o.Get("streamId");
    if (!size.IsNumber() || size.As<Napi::Number>().Int64Value() < static_cast<int64_t>(kHeaderBytes) || size.As<Napi::Number>().Int64Value() > 65507 ||
        !rate.IsNumber() || !(rate.As<Napi::Number>().DoubleValue() > 0) || !tag.IsBuffer() || tag.As<Napi::Buffer<uint8_t>>().Length() < 8 ||
        !id.IsNumber()) {
      Napi::TypeError::New(env, "UdpSend options: datagramBytes (32..65507), bytesPerSec (> 0), streamId and an 8-byte tag expected")
          .ThrowAsJavaScriptException();
      return;
    }
    auto s = std::make_shared<UdpSendState>();
    s->datagramBytes = static_cast<size_t>(size.As<Napi::Number>().Int64Value());
    s->bytesPerSec = rate.As<Napi::Number>().DoubleValue();
    s->streamId = id.As<Napi::Number>().Uint32Value();
    std::memcpy(s->tag, tag.As<Napi::Buffer<uint8_t>>().Data(), 8);
    Napi::Value budget = o.Get("budgetBytes");
    if (budget.IsNumber()) s->budgetBytes = budget.As<Napi::Number>().Int64Value();
    Napi::Value deadline = o.Get("deadlineNs");
    if (deadline.IsBigInt()) {
      bool lossless = false;
      s->deadlineNs = deadline.As<Napi::BigInt>().Uint64Value(&lossless);
    }
    int fd = ::dup(info[0].As<Napi::Number>().Int32Value());
    if (fd < 0) {
      Napi::Error e = Napi::Error::New(env, std::string("dup: ") + std::strerror(errno));
      e.Set("errno", Napi::Number::New(env, errno));
      e.ThrowAsJavaScriptException();
      return;
    }
    s->fd = fd;
    s->done = Napi::ThreadSafeFunction::New(env, info[2].As<Napi::Function>(), "longhaul-udp-send", 0, 1);
    state_ = s;
    std::thread(RunThread, s).detach();
  }

  ~UdpSend() {
    if (state_) state_->stop.store(true);
  }

 private:
  // snapshot() -> [datagrams, bytes, shortBytes, sendErrors, lastSeq, firstNs (bigint), lastNs (bigint), running,
  //                threadCpuStartNs, threadCpuEndNs (-1: unknown or not yet), lastSendErrno (0: none)]
  Napi::Value Snapshot(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    Napi::Array a = Napi::Array::New(env, 11);
    if (!state_) return a;
    UdpSendState* s = state_.get();
    a.Set(0u, Napi::Number::New(env, s->datagrams.load(std::memory_order_relaxed)));
    a.Set(1u, Napi::Number::New(env, s->bytes.load(std::memory_order_relaxed)));
    a.Set(2u, Napi::Number::New(env, s->shortBytes.load(std::memory_order_relaxed)));
    a.Set(3u, Napi::Number::New(env, s->sendErrors.load(std::memory_order_relaxed)));
    a.Set(4u, Napi::Number::New(env, s->seq.load(std::memory_order_relaxed)));
    a.Set(5u, Napi::BigInt::New(env, s->firstNs.load(std::memory_order_relaxed)));
    a.Set(6u, Napi::BigInt::New(env, s->lastNs.load(std::memory_order_relaxed)));
    a.Set(7u, Napi::Boolean::New(env, s->running.load(std::memory_order_acquire)));
    a.Set(8u, Napi::Number::New(env, static_cast<double>(s->cpuStartNs.load(std::memory_order_relaxed))));
    a.Set(9u, Napi::Number::New(env, static_cast<double>(s->cpuEndNs.load(std::memory_order_relaxed))));
    a.Set(10u, Napi::Number::New(env, s->running.load(std::memory_order_acquire) ? 0 : s->lastSendErrno));
    return a;
  }

  Napi::Value Stop(const Napi::CallbackInfo& info) {
    if (state_) state_->stop.store(true, std::memory_order_relaxed);
    return info.Env().Undefined();
  }

  std::shared_ptr<UdpSendState> state_;
};

}  // namespace

void RegisterUdpSend(Napi::Env env, Napi::Object exports) {
  exports.Set("udpSendSupported", Napi::Boolean::New(env, true));
  exports.Set("UdpSend", UdpSend::Define(env));
}

}  // namespace lh

#else  // _WIN32

namespace lh {
void RegisterUdpSend(Napi::Env env, Napi::Object exports) { exports.Set("udpSendSupported", Napi::Boolean::New(env, false)); }
}  // namespace lh

#endif
