// A data stream's byte loop on a thread of its own: the sender writes one
// fixed buffer "from thin air" (ttcp style) with send(2) until a byte budget,
// a deadline or a stop; the receiver reads into one fixed buffer with recv(2)
// until the peer's FIN, counting bytes and read completions.
//
// Why: in Node every write is a JS call, a libuv request and a callback. At
// 128 KiB writes on loopback that per-write cost, not the kernel, was the
// limit (measured: 0.92 of iperf3 for one stream). A plain syscall loop is
// what ttcp and iperf3 do; the JS side keeps everything else (sampling,
// TCP_INFO, stop, results) and reads this loop's counters once per tick.
//
// The loop works on its own dup() of the socket, so the Node socket may be
// closed at any time without the descriptor number being reused under the
// loop. The socket stays non-blocking (the file status is shared with
// libuv): EAGAIN waits in poll() for at most kPollMs, then re-checks the stop
// flag and the deadline, so every stop takes effect within kPollMs.
//
// POSIX only. On Windows `pumpSupported` is false and Longhaul moves bytes in
// Node, as before.
#include <napi.h>
#include <uv.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#ifndef _WIN32
#include <errno.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#endif

namespace lh {
namespace {

constexpr int kPollMs = 50;

#ifdef MSG_NOSIGNAL
constexpr int kSendFlags = MSG_NOSIGNAL;  // a reset peer gives EPIPE, never SIGPIPE
#else
constexpr int kSendFlags = 0;  // macOS: SO_NOSIGPIPE is set on the dup below
#endif

// Why a loop ended.
enum class EndReason { kNone, kEof, kBudget, kDeadline, kStopped, kError };

const char* ReasonName(EndReason r) {
  switch (r) {
    case EndReason::kEof: return "eof";
    case EndReason::kBudget: return "budget";
    case EndReason::kDeadline: return "deadline";
    case EndReason::kStopped: return "stopped";
    case EndReason::kError: return "error";
    default: return "none";
  }
}

// Shared between the JS object and its thread; whichever lets go last frees it.
struct PumpState {
  int fd = -1;
  bool send = false;
  size_t bufferBytes = 0;
  int64_t budgetBytes = -1;  // -1: no byte budget
  uint64_t deadlineNs = 0;   // uv_hrtime(); 0: none
  std::atomic<double> bytes{0};
  std::atomic<double> completions{0};
  std::atomic<uint64_t> firstNs{0};
  std::atomic<uint64_t> lastNs{0};
  std::atomic<bool> stop{false};
  std::atomic<bool> running{true};
  EndReason reason = EndReason::kNone;
  int err = 0;
  const char* where = "";
  Napi::ThreadSafeFunction done;
};

#ifndef _WIN32
// Wait until the socket is ready for `events` or kPollMs passed; EINTR counts as a wake-up.
void WaitReady(int fd, short events) {
  pollfd p{fd, events, 0};
  poll(&p, 1, kPollMs);
}

void RunSender(PumpState* s) {
  std::vector<char> buf(s->bufferBytes, 0x5a);
  double bytes = 0, completions = 0;
  for (;;) {
    if (s->stop.load(std::memory_order_relaxed)) { s->reason = EndReason::kStopped; return; }
    if (s->deadlineNs != 0 && uv_hrtime() >= s->deadlineNs) { s->reason = EndReason::kDeadline; return; }
    size_t want = s->bufferBytes;
    if (s->budgetBytes >= 0) {
      double left = static_cast<double>(s->budgetBytes) - bytes;
      if (left <= 0) { s->reason = EndReason::kBudget; return; }
      if (left < static_cast<double>(want)) want = static_cast<size_t>(left);
    }
    if (s->firstNs.load(std::memory_order_relaxed) == 0) s->firstNs.store(uv_hrtime(), std::memory_order_relaxed);
    size_t off = 0;
    while (off < want) {
      ssize_t n = ::send(s->fd, buf.data() + off, want - off, kSendFlags);
      if (n > 0) {
        off += static_cast<size_t>(n);
        bytes += static_cast<double>(n);
        s->bytes.store(bytes, std::memory_order_relaxed);
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        // A window-limited sender waits here; a stop or the deadline may cut the buffer short.
        if (s->stop.load(std::memory_order_relaxed)) { s->reason = EndReason::kStopped; return; }
        if (s->deadlineNs != 0 && uv_hrtime() >= s->deadlineNs) { s->reason = EndReason::kDeadline; return; }
        WaitReady(s->fd, POLLOUT);
        continue;
      }
      s->reason = EndReason::kError;
      s->err = n < 0 ? errno : EIO;
      s->where = "send";
      return;
    }
    completions += 1;
    s->completions.store(completions, std::memory_order_relaxed);
    s->lastNs.store(uv_hrtime(), std::memory_order_relaxed);
  }
}

void RunReceiver(PumpState* s) {
  std::vector<char> buf(s->bufferBytes);
  double bytes = 0, completions = 0;
  for (;;) {
    if (s->stop.load(std::memory_order_relaxed)) { s->reason = EndReason::kStopped; return; }
    ssize_t n = ::recv(s->fd, buf.data(), buf.size(), 0);
    if (n > 0) {
      uint64_t now = uv_hrtime();
      if (s->firstNs.load(std::memory_order_relaxed) == 0) s->firstNs.store(now, std::memory_order_relaxed);
      s->lastNs.store(now, std::memory_order_relaxed);
      bytes += static_cast<double>(n);
      completions += 1;
      s->bytes.store(bytes, std::memory_order_relaxed);
      s->completions.store(completions, std::memory_order_relaxed);
      continue;
    }
    if (n == 0) { s->reason = EndReason::kEof; return; }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) { WaitReady(s->fd, POLLIN); continue; }
    s->reason = EndReason::kError;
    s->err = errno;
    s->where = "recv";
    return;
  }
}

void RunPump(std::shared_ptr<PumpState> s) {
  if (s->send) RunSender(s.get()); else RunReceiver(s.get());
  ::close(s->fd);
  s->fd = -1;
  s->running.store(false, std::memory_order_release);
  s->done.BlockingCall([s](Napi::Env env, Napi::Function cb) {
    Napi::Value err = env.Null();
    if (s->reason == EndReason::kError) {
      Napi::Error e = Napi::Error::New(env, std::string(s->where) + ": " + std::strerror(s->err));
      e.Set("errno", Napi::Number::New(env, s->err));
      e.Set("syscall", Napi::String::New(env, s->where));
      err = e.Value();
    }
    cb.Call({err, Napi::String::New(env, ReasonName(s->reason))});
  });
  s->done.Release();
}
#endif

// new Pump(fd, { role, bufferBytes, budgetBytes, deadlineNs }, onDone(err, reason))
class Pump : public Napi::ObjectWrap<Pump> {
 public:
  static Napi::Function Define(Napi::Env env) {
    return DefineClass(env, "Pump", {
      InstanceMethod<&Pump::Snapshot>("snapshot"),
      InstanceMethod<&Pump::Stop>("stop"),
    });
  }

  explicit Pump(const Napi::CallbackInfo& info) : Napi::ObjectWrap<Pump>(info) {
    Napi::Env env = info.Env();
#ifdef _WIN32
    Napi::Error::New(env, "the native byte loop is POSIX only").ThrowAsJavaScriptException();
#else
    if (info.Length() < 3 || !info[0].IsNumber() || !info[1].IsObject() || !info[2].IsFunction()) {
      Napi::TypeError::New(env, "new Pump(fd, options, onDone): fd, options object and callback expected").ThrowAsJavaScriptException();
      return;
    }
    Napi::Object o = info[1].As<Napi::Object>();
    Napi::Value role = o.Get("role");
    Napi::Value size = o.Get("bufferBytes");
    if (!role.IsString() || !size.IsNumber() || size.As<Napi::Number>().Int64Value() < 1 ||
        size.As<Napi::Number>().Int64Value() > (1LL << 30)) {
      Napi::TypeError::New(env, "Pump options: role ('send' | 'receive') and bufferBytes (1 B .. 1 GiB) expected").ThrowAsJavaScriptException();
      return;
    }
    auto s = std::make_shared<PumpState>();
    s->send = role.As<Napi::String>().Utf8Value() == "send";
    s->bufferBytes = static_cast<size_t>(size.As<Napi::Number>().Int64Value());
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
#ifdef SO_NOSIGPIPE
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof one);
#endif
    s->fd = fd;
    s->done = Napi::ThreadSafeFunction::New(env, info[2].As<Napi::Function>(), "longhaul-pump", 0, 1);
    state_ = s;
    std::thread(RunPump, s).detach();
#endif
  }

  ~Pump() {
    // Garbage-collected while running (the JS side let go of it): stop the loop; the thread frees the state.
    if (state_) state_->stop.store(true);
  }

 private:
  // snapshot() -> [bytes, completions, firstNs (bigint, 0n = none), lastNs (bigint), running]
  Napi::Value Snapshot(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    Napi::Array a = Napi::Array::New(env, 5);
    if (!state_) return a;
    a.Set(0u, Napi::Number::New(env, state_->bytes.load(std::memory_order_relaxed)));
    a.Set(1u, Napi::Number::New(env, state_->completions.load(std::memory_order_relaxed)));
    a.Set(2u, Napi::BigInt::New(env, state_->firstNs.load(std::memory_order_relaxed)));
    a.Set(3u, Napi::BigInt::New(env, state_->lastNs.load(std::memory_order_relaxed)));
    a.Set(4u, Napi::Boolean::New(env, state_->running.load(std::memory_order_acquire)));
    return a;
  }

  // stop(): the loop ends within kPollMs; onDone follows with reason 'stopped' (or whatever ended it first).
  Napi::Value Stop(const Napi::CallbackInfo& info) {
    if (state_) state_->stop.store(true, std::memory_order_relaxed);
    return info.Env().Undefined();
  }

  std::shared_ptr<PumpState> state_;
};

}  // namespace

bool PumpSupported() {
#ifdef _WIN32
  return false;
#else
  return true;
#endif
}

Napi::Function DefinePump(Napi::Env env) { return Pump::Define(env); }

}  // namespace lh
