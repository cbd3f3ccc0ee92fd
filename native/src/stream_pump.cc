// The data streams' byte loops, off the JS thread: senders write one fixed
// buffer "from thin air" (ttcp style) with send(2) until a byte budget, a
// deadline or a stop; receivers read into one fixed buffer with recv(2) until
// the peer's FIN, a byte budget or a stop, counting bytes and read completions. All senders of a
// process share one thread (SenderGroup, sender_group.cc); each receiver has its own.
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
//   wakes the reader once per that many bytes instead of once per segment
//   (docs/measurements.md#read-batching). Data waits at most ~kBatchHoldUs longer in the kernel
//   (a timeout, the FIN or an error wake the reader at once); the engine
//   turns batching off when the user set a window, so a window test's
//   advertised window is never reduced by bytes held for batching.
//
// - Zero-copy (sender, `zeroCopy`, -Z): the senders' thread hands the same bytes to the socket with
//   sendfile(2) from a memory file holding the payload pattern (lh_payload_file.h, Linux), else
//   copies with send() and says why; snapshot() tells which. Budget, pacing, deadline, stop and the
//   EAGAIN waits are the same for both calls.
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
#include "lh_pump_state.h"
#include "lh_receive_options.h"
#include "lh_socket.h"
#include "lh_thread_cpu.h"
#include "lh_thread_name.h"

namespace lh {

// A number for each byte-loop thread of this process, so the JS side can tell which streams shared one.
uint32_t NextThreadSerial() {
  static std::atomic<uint32_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

// This thread takes `s` on: note which thread it is and the CPU it has used so far.
void TakeOn(PumpState* s, uint32_t thread) {
  s->thread.store(thread, std::memory_order_relaxed);
  s->cpuStartNs.store(ThreadCpuNs(), std::memory_order_relaxed);
  s->waitStartNs.store(ThreadWaitNs(), std::memory_order_relaxed);
}

namespace {

using net::Sock;

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

}  // namespace

// Hand the end to JS (once) and let go of the socket.
void Finish(const std::shared_ptr<PumpState>& s, EndReason reason, int err, const char* where) {
  s->reason = reason;
  s->err = err;
  s->where = where;
  s->cpuEndNs.store(ThreadCpuNs(), std::memory_order_relaxed);  // Finish always runs on the loop's own thread
  s->waitEndNs.store(ThreadWaitNs(), std::memory_order_relaxed);
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

namespace {

// Wait until the socket is ready for `events` or kPollMs passed; EINTR counts as a wake-up.
void WaitReady(Sock fd, short events) { net::WaitOne(fd, events, kPollMs); }

void RunReceiver(PumpState* s) {
  std::vector<char> buf(s->bufferBytes);
  double bytes = 0, completions = 0;
  BlockingReads blocking(s->fd, kPollMs);
  ReadBatcher batcher(s->fd, buf.size());
  for (;;) {
    if (s->stop.load(std::memory_order_relaxed)) { s->reason = EndReason::kStopped; break; }
    // A receiver's budget (the responder's cap on what a peer may send it) is never exceeded:
    // the last read asks for what is left of it, and the loop ends there without reading on.
    size_t want = buf.size();
    if (s->budgetBytes >= 0) {
      double left = static_cast<double>(s->budgetBytes) - bytes;
      if (left <= 0) { s->reason = EndReason::kBudget; break; }
      if (left < static_cast<double>(want)) want = static_cast<size_t>(left);
    }
    long long n = net::RecvSome(s->fd, buf.data(), want);
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
  NameThisThread("lh-recv");
  TakeOn(s.get(), NextThreadSerial());
  RunReceiver(s.get());
  Finish(s, s->reason, s->err, s->where);
}

// new Pump(fd, { role, bufferBytes, budgetBytes, deadlineNs, batchReads, pacingBytesPerSec, zeroCopy }, onDone(err, reason))
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
    s->zeroCopy = s->send && o.Get("zeroCopy").ToBoolean().Value();
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
    if (s->send) AddSender(s);
    else std::thread(RunReceiverThread, s).detach();
  }

  ~Pump() {
    // Garbage-collected while running (the JS side let go of it): stop the loop; the thread frees the state.
    if (state_) state_->stop.store(true);
  }

 private:
  // snapshot() -> [bytes, completions, firstNs (bigint, 0n = none), lastNs (bigint), running,
  //                thread (0 = none yet), threadCpuStartNs, threadCpuEndNs (-1 = unknown or not yet),
  //                threadWaitStartNs, threadWaitEndNs (run-queue wait; -1 = unknown or not yet),
  //                sendPath ('copy' | 'sendfile'; '' = a receiver, or not taken on yet),
  //                copyReason (why -Z was not honoured, or null)]
  Napi::Value Snapshot(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    Napi::Array a = Napi::Array::New(env, 12);
    if (!state_) return a;
    a.Set(0u, Napi::Number::New(env, state_->bytes.load(std::memory_order_relaxed)));
    a.Set(1u, Napi::Number::New(env, state_->completions.load(std::memory_order_relaxed)));
    a.Set(2u, Napi::BigInt::New(env, state_->firstNs.load(std::memory_order_relaxed)));
    a.Set(3u, Napi::BigInt::New(env, state_->lastNs.load(std::memory_order_relaxed)));
    a.Set(4u, Napi::Boolean::New(env, state_->running.load(std::memory_order_acquire)));
    a.Set(5u, Napi::Number::New(env, state_->thread.load(std::memory_order_relaxed)));
    a.Set(6u, Napi::Number::New(env, static_cast<double>(state_->cpuStartNs.load(std::memory_order_relaxed))));
    a.Set(7u, Napi::Number::New(env, static_cast<double>(state_->cpuEndNs.load(std::memory_order_relaxed))));
    a.Set(8u, Napi::Number::New(env, static_cast<double>(state_->waitStartNs.load(std::memory_order_relaxed))));
    a.Set(9u, Napi::Number::New(env, static_cast<double>(state_->waitEndNs.load(std::memory_order_relaxed))));
    int path = state_->path.load(std::memory_order_acquire);
    a.Set(10u, Napi::String::New(env, path == kPathSendfile ? "sendfile" : path == kPathCopy ? "copy" : ""));
    // copyReason is written before path turns kPathCopy, and never after.
    bool why = path == kPathCopy && !state_->copyReason.empty();
    a.Set(11u, why ? Napi::Value(Napi::String::New(env, state_->copyReason)) : env.Null());
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
