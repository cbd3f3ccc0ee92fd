// The data streams' byte loops, off the JS thread: senders write one fixed
// buffer "from thin air" (ttcp style) with send(2) until a byte budget, a
// deadline or a stop; receivers read into one fixed buffer with recv(2) until
// the peer's FIN, counting bytes and read completions. All senders of a
// process share one thread (SenderGroup); each receiver has its own.
//
// Why: in Node every write is a JS call, a libuv request and a callback. At
// 128 KiB writes on loopback that per-write cost, not the kernel, was the
// limit (measured: 0.92 of iperf3 for one stream). A plain syscall loop is
// what ttcp and iperf3 do; the JS side keeps everything else (sampling,
// TCP_INFO, stop, results) and reads this loop's counters once per tick.
//
// The loop works on its own dup() of the socket, so the Node socket may be
// closed at any time without the descriptor number being reused under the
// loop. Every wait is bounded by kPollMs, then the stop flag and the deadline
// are checked again, so every stop takes effect within kPollMs:
// - The sender's socket stays non-blocking (Node still watches it for the
//   peer's FIN): EAGAIN waits in poll().
// - The receiver's Node socket is paused while the loop runs (Node does not
//   touch it), so the loop makes it blocking with SO_RCVTIMEO = kPollMs and
//   puts both back before it reports the end. One recv() per wake-up instead
//   of recv + EAGAIN + poll.
// - Read batching (receiver, `batchReads`): every kBatchPeriodNs the loop
//   sets SO_RCVLOWAT to what arrives in kBatchHoldUs at the rate it just
//   measured (at most one read buffer and 1/16 of SO_RCVBUF), so the kernel
//   wakes the reader once per that many bytes instead of once per segment.
//   Measured on loopback at 128 KiB: the wake-ups, not the copies, were the
//   receiver's cost. Data waits at most ~kBatchHoldUs longer in the kernel
//   (a timeout, the FIN or an error wake the reader at once); the engine
//   turns batching off when the user set a window, so a window test's
//   advertised window is never reduced by bytes held for batching.
//
// - Pacing (sender, `pacingBytesPerSec`, where the kernel cannot pace: --bitrate off Linux):
//   each stream's sends draw on a token bucket (lh_pacer.h); a stream ahead of its rate
//   sleeps with the full ones, for at most the time until its bucket refills.
//
// Windows (Winsock): the same loops on the addon-owned socket itself (there is
// no dup(), and Node never holds a Windows data socket: owned_conn.cc), always
// non-blocking with WSAPoll() for the bounded waits, and without read batching
// (Windows TCP ignores SO_RCVLOWAT). The JS side closes that socket after onDone.
#include <napi.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "lh_net.h"
#include "lh_pacer.h"
#include "lh_receive_options.h"
#include "lh_socket.h"
#include "lh_thread_cpu.h"

namespace lh {
namespace {

constexpr int kPollMs = 50;

using net::Sock;

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
  Sock fd = net::kBadSock;
  bool send = false;
  size_t bufferBytes = 0;
  int64_t budgetBytes = -1;  // -1: no byte budget
  bool batchReads = false;   // receiver: adapt SO_RCVLOWAT to the rate
  double pacingBytesPerSec = 0;  // sender: Longhaul's own pacing (lh_pacer.h); 0: none
  uint64_t deadlineNs = 0;   // net::MonoNs(); 0: none
  std::atomic<double> bytes{0};
  std::atomic<double> completions{0};
  std::atomic<uint64_t> firstNs{0};
  std::atomic<uint64_t> lastNs{0};
  std::atomic<bool> stop{false};
  std::atomic<bool> running{true};
  // The thread that served this stream (a serial per process, 0 = none yet) and its CPU time
  // (ThreadCpuNs) when it took the stream on and when the stream ended; -1 = unknown or not yet.
  // A sender thread serves several streams: its cost is max(end) - min(start) over them.
  std::atomic<uint32_t> thread{0};
  std::atomic<int64_t> cpuStartNs{-1};
  std::atomic<int64_t> cpuEndNs{-1};
  EndReason reason = EndReason::kNone;
  int err = 0;
  const char* where = "";
  Napi::ThreadSafeFunction done;
};

// A number for each byte-loop thread of this process, so the JS side can tell which streams shared one.
uint32_t NextThreadSerial() {
  static std::atomic<uint32_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

// This thread takes `s` on: note which thread it is and the CPU it has used so far.
void TakeOn(PumpState* s, uint32_t thread) {
  s->thread.store(thread, std::memory_order_relaxed);
  s->cpuStartNs.store(ThreadCpuNs(), std::memory_order_relaxed);
}

// Wait until the socket is ready for `events` or kPollMs passed; EINTR counts as a wake-up.
void WaitReady(Sock fd, short events) { net::WaitOne(fd, events, kPollMs); }

// Hand the end to JS (once) and let go of the socket.
void Finish(const std::shared_ptr<PumpState>& s, EndReason reason, int err = 0, const char* where = "") {
  s->reason = reason;
  s->err = err;
  s->where = where;
  s->cpuEndNs.store(ThreadCpuNs(), std::memory_order_relaxed);  // Finish always runs on the loop's own thread
#ifndef _WIN32
  ::close(s->fd);  // our dup; Windows borrows the JS side's socket, which closes it after onDone
#endif
  s->fd = net::kBadSock;
  s->running.store(false, std::memory_order_release);
  s->done.BlockingCall([s](Napi::Env env, Napi::Function cb) {
    Napi::Value e = env.Null();
    if (s->reason == EndReason::kError) {
      Napi::Error x = Napi::Error::New(env, std::string(s->where) + ": " + ErrorText(s->err));
      x.Set("errno", Napi::Number::New(env, s->err));
      x.Set("syscall", Napi::String::New(env, s->where));
      e = x.Value();
    }
    cb.Call({e, Napi::String::New(env, ReasonName(s->reason))});
  });
  s->done.Release();
}

// All senders of this process share ONE thread, which serves their sockets
// round-robin, one send() per stream per turn, and sleeps in poll() only when
// every socket is full (iperf3's structure). Measured on 2 CPUs, loopback,
// 2 streams x 1 MiB writes: one thread per stream put four busy threads (two
// senders, two receivers) on two cores and lost to iperf3 -P 2; one sender
// thread keeps the receivers' core free.
class SenderGroup {
 public:
  static void Add(std::shared_ptr<PumpState> s) {
    std::lock_guard<std::mutex> lock(mu_);
    pending_.push_back(std::move(s));
    if (!running_) {
      running_ = true;
      std::thread(Run).detach();
    }
  }

 private:
  struct Stream {
    std::shared_ptr<PumpState> s;
    size_t off = 0;   // bytes of the current buffer already sent
    size_t want = 0;  // size of the current buffer (0: between buffers)
    double bytes = 0;
    double completions = 0;
    bool full = false;  // the last send() said EAGAIN
    Pacer pacer;        // off unless the stream is paced by this loop
    uint64_t wakeNs = 0;  // paced: no send before this (0: may send)
  };

  static bool StopOrDeadline(Stream& st, uint64_t now) {
    PumpState* s = st.s.get();
    if (s->stop.load(std::memory_order_relaxed)) {
      Finish(st.s, EndReason::kStopped);
      return true;
    }
    if (s->deadlineNs != 0 && now >= s->deadlineNs) {
      Finish(st.s, EndReason::kDeadline);
      return true;
    }
    return false;
  }

  // One send() for this stream; false when the stream has ended.
  static bool Turn(Stream& st, const std::vector<char>& payload, bool* progress) {
    PumpState* s = st.s.get();
    if (st.off == st.want) {
      // Between buffers: the only place a healthy, unblocked stream stops.
      if (StopOrDeadline(st, net::MonoNs())) return false;
      size_t want = s->bufferBytes;
      if (s->budgetBytes >= 0) {
        double left = static_cast<double>(s->budgetBytes) - st.bytes;
        if (left <= 0) {
          Finish(st.s, EndReason::kBudget);
          return false;
        }
        if (left < static_cast<double>(want)) want = static_cast<size_t>(left);
      }
      if (s->firstNs.load(std::memory_order_relaxed) == 0) s->firstNs.store(net::MonoNs(), std::memory_order_relaxed);
      st.off = 0;
      st.want = want;
    }
    size_t chunk = st.want - st.off;
    if (st.pacer.on()) {
      uint64_t now = net::MonoNs();
      chunk = st.pacer.Allow(now, chunk);
      if (chunk == 0) {
        // Ahead of the rate: sleep (Run) until the bucket has a burst; a stop or the deadline still ends it.
        st.full = false;
        st.wakeNs = now + st.pacer.WaitNs(now, st.want - st.off);
        return !StopOrDeadline(st, now);
      }
      st.wakeNs = 0;
    }
    long long n = net::SendSome(s->fd, payload.data() + st.off, chunk);
    if (n > 0) {
      *progress = true;
      st.full = false;
      st.pacer.Spent(static_cast<size_t>(n));
      st.off += static_cast<size_t>(n);
      st.bytes += static_cast<double>(n);
      s->bytes.store(st.bytes, std::memory_order_relaxed);
      if (st.off == st.want) {
        st.completions += 1;
        s->completions.store(st.completions, std::memory_order_relaxed);
        s->lastNs.store(net::MonoNs(), std::memory_order_relaxed);
      }
      return true;
    }
    int e = n < 0 ? net::LastError() : 0;
    if (n < 0 && net::Interrupted(e)) {
      *progress = true;
      return true;
    }
    if (n < 0 && net::WouldBlock(e)) {
      // A window-limited sender waits; a stop or the deadline may cut its buffer short.
      st.full = true;
      return !StopOrDeadline(st, net::MonoNs());
    }
    Finish(st.s, EndReason::kError, n < 0 ? e : net::kConnReset, "send");
    return false;
  }

  static void Run() {
    std::vector<Stream> streams;
    std::vector<char> payload;
    std::vector<net::PollFd> fds;
    const uint32_t thread = NextThreadSerial();
    for (;;) {
      {
        std::lock_guard<std::mutex> lock(mu_);
        for (auto& s : pending_) {
          TakeOn(s.get(), thread);
          if (payload.size() < s->bufferBytes) payload.assign(s->bufferBytes, 0x5a);
          Stream st{std::move(s)};
          if (st.s->pacingBytesPerSec > 0) st.pacer = Pacer(st.s->pacingBytesPerSec, net::MonoNs());
          streams.push_back(std::move(st));
        }
        pending_.clear();
        if (streams.empty()) {
          running_ = false;
          return;
        }
      }
      bool progress = false;
      for (size_t i = 0; i < streams.size();) {
        if (Turn(streams[i], payload, &progress)) {
          i++;
        } else {
          streams[i] = std::move(streams.back());
          streams.pop_back();
          progress = true;
        }
      }
      if (progress || streams.empty()) continue;
      // Every socket is full or paced: sleep until one has room, a paced one may send again,
      // or kPollMs passed (to see stops and deadlines).
      int waitMs = kPollMs;
      fds.clear();
      uint64_t now = net::MonoNs();
      for (auto& st : streams) {
        if (st.wakeNs != 0) {
          waitMs = std::min<int>(waitMs, static_cast<int>((std::max(st.wakeNs, now) - now + 999999) / 1000000));
          continue;
        }
        net::PollFd p{};
        p.fd = st.s->fd;
        p.events = net::kPollOut;
        fds.push_back(p);
      }
      if (fds.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(std::max(waitMs, 1)));
      else net::Poll(fds.data(), fds.size(), std::max(waitMs, 1));
    }
  }

  static std::mutex mu_;
  static std::vector<std::shared_ptr<PumpState>> pending_;
  static bool running_;
};

std::mutex SenderGroup::mu_;
std::vector<std::shared_ptr<PumpState>> SenderGroup::pending_;
bool SenderGroup::running_ = false;


void RunReceiver(PumpState* s) {
  std::vector<char> buf(s->bufferBytes);
  double bytes = 0, completions = 0;
  BlockingReads blocking(s->fd, kPollMs);
  ReadBatcher batcher(s->fd, buf.size());
  for (;;) {
    if (s->stop.load(std::memory_order_relaxed)) { s->reason = EndReason::kStopped; break; }
    long long n = net::RecvSome(s->fd, buf.data(), buf.size());
    if (n > 0) {
      uint64_t now = net::MonoNs();
      if (s->firstNs.load(std::memory_order_relaxed) == 0) s->firstNs.store(now, std::memory_order_relaxed);
      s->lastNs.store(now, std::memory_order_relaxed);
      bytes += static_cast<double>(n);
      completions += 1;
      s->bytes.store(bytes, std::memory_order_relaxed);
      s->completions.store(completions, std::memory_order_relaxed);
      if (s->batchReads) batcher.Count(static_cast<double>(n), now);
      continue;
    }
    if (n == 0) { s->reason = EndReason::kEof; break; }
    int e = net::LastError();
    if (net::Interrupted(e)) continue;
    if (net::WouldBlock(e)) {
      // Blocking: the receive timeout passed with nothing to read. Non-blocking: wait here.
      if (!blocking.ok()) WaitReady(s->fd, net::kPollIn);
      if (s->batchReads) batcher.Idle();
      continue;
    }
    s->reason = EndReason::kError;
    s->err = e;
    s->where = "recv";
    break;
  }
  batcher.Reset();
}

// One thread per receiving stream: blocking reads, batched (see the top of the file).
void RunReceiverThread(std::shared_ptr<PumpState> s) {
  TakeOn(s.get(), NextThreadSerial());
  RunReceiver(s.get());
  Finish(s, s->reason, s->err, s->where);
}

// new Pump(fd, { role, bufferBytes, budgetBytes, deadlineNs, batchReads, pacingBytesPerSec }, onDone(err, reason))
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
    s->batchReads = o.Get("batchReads").ToBoolean().Value();
    Napi::Value pacing = o.Get("pacingBytesPerSec");
    if (pacing.IsNumber() && pacing.As<Napi::Number>().DoubleValue() > 0) s->pacingBytesPerSec = pacing.As<Napi::Number>().DoubleValue();
    Napi::Value deadline = o.Get("deadlineNs");
    if (deadline.IsBigInt()) {
      bool lossless = false;
      s->deadlineNs = deadline.As<Napi::BigInt>().Uint64Value(&lossless);
    }
#ifdef _WIN32
    Sock fd = static_cast<Sock>(info[0].As<Napi::Number>().Int64Value());
    if (!net::SetNonBlocking(fd)) {
      Napi::Error e = Napi::Error::New(env, std::string("ioctlsocket(FIONBIO): ") + ErrorText(net::LastError()));
      e.Set("errno", Napi::Number::New(env, net::LastError()));
      e.ThrowAsJavaScriptException();
      return;
    }
#else
    int fd = ::dup(info[0].As<Napi::Number>().Int32Value());
    if (fd < 0) {
      Napi::Error e = Napi::Error::New(env, std::string("dup: ") + ErrorText(errno));
      e.Set("errno", Napi::Number::New(env, errno));
      e.ThrowAsJavaScriptException();
      return;
    }
#ifdef SO_NOSIGPIPE
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof one);
#endif
#endif
    s->fd = fd;
    s->done = Napi::ThreadSafeFunction::New(env, info[2].As<Napi::Function>(), "longhaul-pump", 0, 1);
    state_ = s;
    if (s->send) SenderGroup::Add(s);
    else std::thread(RunReceiverThread, s).detach();
  }

  ~Pump() {
    // Garbage-collected while running (the JS side let go of it): stop the loop; the thread frees the state.
    if (state_) state_->stop.store(true);
  }

 private:
  // snapshot() -> [bytes, completions, firstNs (bigint, 0n = none), lastNs (bigint), running,
  //                thread (0 = none yet), threadCpuStartNs, threadCpuEndNs (-1 = unknown or not yet)]
  Napi::Value Snapshot(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    Napi::Array a = Napi::Array::New(env, 8);
    if (!state_) return a;
    a.Set(0u, Napi::Number::New(env, state_->bytes.load(std::memory_order_relaxed)));
    a.Set(1u, Napi::Number::New(env, state_->completions.load(std::memory_order_relaxed)));
    a.Set(2u, Napi::BigInt::New(env, state_->firstNs.load(std::memory_order_relaxed)));
    a.Set(3u, Napi::BigInt::New(env, state_->lastNs.load(std::memory_order_relaxed)));
    a.Set(4u, Napi::Boolean::New(env, state_->running.load(std::memory_order_acquire)));
    a.Set(5u, Napi::Number::New(env, state_->thread.load(std::memory_order_relaxed)));
    a.Set(6u, Napi::Number::New(env, static_cast<double>(state_->cpuStartNs.load(std::memory_order_relaxed))));
    a.Set(7u, Napi::Number::New(env, static_cast<double>(state_->cpuEndNs.load(std::memory_order_relaxed))));
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

bool PumpSupported() { return true; }

Napi::Function DefinePump(Napi::Env env) { return Pump::Define(env); }

}  // namespace lh
