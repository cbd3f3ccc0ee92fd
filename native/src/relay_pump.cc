// The link emulator's byte mover (one direction of one proxied connection),
// off the JS thread. JS keeps the whole model (electron/proxy/pipe.ts: delay,
// rate, window, slow start, loss, bypass, reconfiguration) and works on byte
// counts only; this thread holds the bytes themselves:
//
//   source ──recv──► blocks (in order) ──send──► sink
//              ▲ up to readLimit      ▲ up to released     (offsets set by JS)
//
// - It reads from the source only below `readLimit` (the pipe's inbox credit),
//   so it never holds more than the model allows; it writes to the sink only
//   up to `released` (what the model has let leave); `finish` sends the FIN
//   after the last released byte.
// - It tells JS what moved through one coalesced notification (at most one
//   waits in the queue), with the counters read when JS runs, never stale.
// - Why: two syscalls per 256 KiB instead of a Buffer per read and a libuv
//   write per chunk (docs/measurements.md#native-relay).
// - It also measures its own lag (`behindNs`): before each read that took all
//   it asked for while the model had room (the sender was ahead), the time
//   since the previous read, the emulator's own delay rather than the link's
//   (electron/proxy/emulator-watch.ts).
//
// POSIX only: it works on dup()s of the Node sockets' descriptors (Node leaves
// paused sockets alone). Windows' Node sockets expose no SOCKET, so there the
// proxy keeps its JavaScript mover and says so.
#include <napi.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "lh_napi.h"
#include "lh_net.h"
#include "lh_socket.h"
#include "lh_thread_name.h"

namespace lh {

#ifndef _WIN32
namespace {

constexpr size_t kBlockBytes = 256 * 1024;
constexpr int kPollMs = 50;
constexpr size_t kPoolBlocks = 8;
// Only a full read at least this large says the sender is ahead (a block's last sliver says nothing).
constexpr size_t kBehindMinRead = 64 * 1024;

// Bits of the `state` argument of the notification.
constexpr int kEof = 1;        // the source sent its FIN (and every byte before it was read)
constexpr int kShutdown = 2;   // our FIN went to the sink after the last released byte
constexpr int kEnded = 4;      // the thread let go of both descriptors (last notification)

struct RelayState {
  int src = -1;
  int dst = -1;
  int wakeRead = -1;
  int wakeWrite = -1;
  std::atomic<uint64_t> readLimit{0};
  std::atomic<uint64_t> released{0};
  std::atomic<bool> finish{false};
  std::atomic<bool> stop{false};
  std::atomic<bool> sleeping{false};
  std::atomic<uint64_t> readBytes{0};
  std::atomic<uint64_t> writtenBytes{0};
  std::atomic<uint64_t> behindNs{0};
  std::atomic<int> state{0};
  std::atomic<bool> notifyPending{false};
  int err = 0;
  const char* where = "";
  Napi::ThreadSafeFunction notify;
};

void CallJs(Napi::Env env, Napi::Function cb, RelayState* s) {
  // Clear first, then read: an update after this read queues a new call.
  s->notifyPending.store(false, std::memory_order_seq_cst);
  int state = s->state.load(std::memory_order_acquire);
  Napi::Value e = env.Null();
  if ((state & kEnded) && s->err != 0) {
    Napi::Error x = Napi::Error::New(env, std::string(s->where) + ": " + ErrorText(s->err));
    x.Set("errno", Napi::Number::New(env, s->err));
    x.Set("syscall", Napi::String::New(env, s->where));
    e = x.Value();
  }
  cb.Call({e, Napi::Number::New(env, static_cast<double>(s->readBytes.load(std::memory_order_acquire))),
           Napi::Number::New(env, static_cast<double>(s->writtenBytes.load(std::memory_order_acquire))),
           Napi::Number::New(env, state),
           Napi::Number::New(env, static_cast<double>(s->behindNs.load(std::memory_order_relaxed)) / 1e6)});
}

void Notify(const std::shared_ptr<RelayState>& s) {
  if (s->notifyPending.exchange(true, std::memory_order_seq_cst)) return;
  std::shared_ptr<RelayState> keep = s;
  s->notify.NonBlockingCall([keep](Napi::Env env, Napi::Function cb) { CallJs(env, cb, keep.get()); });
}

void Wake(RelayState* s) {
  if (!s->sleeping.load(std::memory_order_seq_cst)) return;
  char b = 1;
  ssize_t r = ::write(s->wakeWrite, &b, 1);
  (void)r;  // a full pipe already wakes the thread
}

// In-order byte store: whole blocks from the head (sent) to the tail (being filled).
class Blocks {
 public:
  ~Blocks() {
    for (char* b : blocks_) delete[] b;
    for (char* b : pool_) delete[] b;
  }
  // Room at the tail for the next read (a new block when the tail is full).
  char* Tail(size_t* room) {
    if (blocks_.empty() || tailFill_ == kBlockBytes) {
      blocks_.push_back(Take());
      tailFill_ = 0;
    }
    *room = kBlockBytes - tailFill_;
    return blocks_.back() + tailFill_;
  }
  void Filled(size_t n) { tailFill_ += n; }
  // The next contiguous bytes to send, at most `max`.
  const char* Head(size_t max, size_t* n) const {
    size_t end = blocks_.size() == 1 ? tailFill_ : kBlockBytes;
    *n = std::min(max, end - headOff_);
    return blocks_.front() + headOff_;
  }
  void Sent(size_t n) {
    headOff_ += n;
    if (headOff_ < kBlockBytes) return;
    Give(blocks_.front());
    blocks_.pop_front();
    headOff_ = 0;
    if (blocks_.empty()) tailFill_ = 0;
  }

 private:
  char* Take() {
    if (pool_.empty()) return new char[kBlockBytes];
    char* b = pool_.back();
    pool_.pop_back();
    return b;
  }
  void Give(char* b) {
    if (pool_.size() < kPoolBlocks) pool_.push_back(b);
    else delete[] b;
  }
  std::deque<char*> blocks_;
  std::vector<char*> pool_;
  size_t headOff_ = 0;
  size_t tailFill_ = 0;
};

void Fail(RelayState* s, int err, const char* where) {
  s->err = err;
  s->where = where;
}

void Run(std::shared_ptr<RelayState> s) {
  NameThisThread("lh-relay");
  Blocks blocks;
  uint64_t rd = 0, wr = 0;
  bool eof = false, shut = false;
  // Behind: a full read (more was waiting than it took) charges the time since the previous read
  // attempt to the relay: the sender's bytes waited that long for this thread (a stalled process, a
  // busy core). Waiting for the model's credit is the link's time, never charged.
  uint64_t lastReadNs = net::MonoNs();
  bool creditBlocked = false;
  while (!s->stop.load(std::memory_order_relaxed)) {
    bool progress = false;
    uint64_t limit = s->readLimit.load(std::memory_order_acquire);
    uint64_t rel = s->released.load(std::memory_order_acquire);
    if (!eof && rd < limit) {
      if (creditBlocked) {
        creditBlocked = false;
        lastReadNs = net::MonoNs();
      }
      size_t room = 0;
      char* at = blocks.Tail(&room);
      size_t want = static_cast<size_t>(std::min<uint64_t>(room, limit - rd));
      bool creditBound = want == limit - rd;
      long long n = net::RecvSome(s->src, at, want);
      uint64_t t = net::MonoNs();
      if (n > 0) {
        rd += static_cast<uint64_t>(n);
        blocks.Filled(static_cast<size_t>(n));
        s->readBytes.store(rd, std::memory_order_release);
        if (static_cast<size_t>(n) == want && !creditBound && want >= kBehindMinRead) {
          s->behindNs.fetch_add(t - lastReadNs, std::memory_order_relaxed);
        }
        progress = true;
        Notify(s);
      } else if (n == 0) {
        eof = true;
        s->state.fetch_or(kEof, std::memory_order_acq_rel);
        progress = true;
        Notify(s);
      } else {
        int e = net::LastError();
        if (!net::WouldBlock(e) && !net::Interrupted(e)) {
          Fail(s.get(), e, "recv");
          break;
        }
      }
      lastReadNs = t;
    } else if (!eof) {
      creditBlocked = true;
    }
    if (wr < rel) {
      size_t n = 0;
      const char* p = blocks.Head(static_cast<size_t>(std::min<uint64_t>(rel - wr, kBlockBytes)), &n);
      long long w = net::SendSome(s->dst, p, n);
      if (w > 0) {
        wr += static_cast<uint64_t>(w);
        blocks.Sent(static_cast<size_t>(w));
        s->writtenBytes.store(wr, std::memory_order_release);
        progress = true;
        Notify(s);
      } else if (w < 0) {
        int e = net::LastError();
        if (!net::WouldBlock(e) && !net::Interrupted(e)) {
          Fail(s.get(), e, "send");
          break;
        }
      }
    }
    if (!shut && wr == rel && s->finish.load(std::memory_order_acquire) && wr == s->released.load(std::memory_order_acquire)) {
      int e = net::ShutdownSend(s->dst);
      if (e != 0 && e != ENOTCONN) {
        Fail(s.get(), e, "shutdown");
        break;
      }
      shut = true;
      s->state.fetch_or(kShutdown, std::memory_order_acq_rel);
      progress = true;
      Notify(s);
    }
    if (eof && shut) break;
    if (progress) continue;
    // Nothing moved: sleep until a socket is ready or JS moves a limit (then re-check, so no wake is lost).
    s->sleeping.store(true, std::memory_order_seq_cst);
    bool changed = s->readLimit.load(std::memory_order_seq_cst) != limit || s->released.load(std::memory_order_seq_cst) != rel ||
                   (s->finish.load(std::memory_order_seq_cst) && !shut) || s->stop.load(std::memory_order_seq_cst);
    if (!changed) {
      net::PollFd p[3]{};
      size_t k = 0;
      p[k].fd = s->wakeRead;
      p[k++].events = POLLIN;
      if (!eof && rd < limit) {
        p[k].fd = s->src;
        p[k++].events = POLLIN;
      }
      if (wr < rel) {
        p[k].fd = s->dst;
        p[k++].events = POLLOUT;
      }
      net::Poll(p, k, kPollMs);
      if (p[0].revents & POLLIN) {
        char buf[64];
        while (::read(s->wakeRead, buf, sizeof buf) > 0) {
        }
      }
    }
    s->sleeping.store(false, std::memory_order_seq_cst);
  }
  ::close(s->src);
  ::close(s->dst);
  s->src = s->dst = -1;
  s->state.fetch_or(kEnded, std::memory_order_acq_rel);
  // The last word is never coalesced away: JS learns the end (and any error) exactly once.
  s->notify.BlockingCall([s](Napi::Env env, Napi::Function cb) { CallJs(env, cb, s.get()); });
  s->notify.Release();
  ::close(s->wakeRead);
  ::close(s->wakeWrite);
}

int DupNoSigpipe(int fd) {
  int d = ::dup(fd);
#ifdef SO_NOSIGPIPE
  int one = 1;
  if (d >= 0) setsockopt(d, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof one);
#endif
  return d;
}

// new Relay(srcFd, dstFd, onNotify(err, readBytes, writtenBytes, state, behindMs))
class Relay : public Napi::ObjectWrap<Relay> {
 public:
  static Napi::Function Define(Napi::Env env) {
    return DefineClass(env, "Relay", {
      InstanceMethod<&Relay::SetReadLimit>("setReadLimit"),
      InstanceMethod<&Relay::Release>("release"),
      InstanceMethod<&Relay::Finish>("finish"),
      InstanceMethod<&Relay::Stop>("stop"),
    });
  }

  explicit Relay(const Napi::CallbackInfo& info) : Napi::ObjectWrap<Relay>(info) {
    Napi::Env env = info.Env();
    if (info.Length() < 3 || !info[0].IsNumber() || !info[1].IsNumber() || !info[2].IsFunction()) {
      Napi::TypeError::New(env, "new Relay(srcFd, dstFd, onNotify): two descriptors and a callback expected").ThrowAsJavaScriptException();
      return;
    }
    auto s = std::make_shared<RelayState>();
    int pipeFds[2] = {-1, -1};
    s->src = DupNoSigpipe(info[0].As<Napi::Number>().Int32Value());
    s->dst = s->src < 0 ? -1 : DupNoSigpipe(info[1].As<Napi::Number>().Int32Value());
    if (s->src < 0 || s->dst < 0 || ::pipe(pipeFds) != 0) {
      int e = errno;
      if (s->src >= 0) ::close(s->src);
      if (s->dst >= 0) ::close(s->dst);
      OsErrorValue(env, e, s->src < 0 || s->dst < 0 ? "dup" : "pipe").ThrowAsJavaScriptException();
      return;
    }
    s->wakeRead = pipeFds[0];
    s->wakeWrite = pipeFds[1];
    net::SetNonBlocking(s->wakeRead);
    net::SetNonBlocking(s->wakeWrite);
    // Node's sockets are non-blocking already; the dups share that flag. Say so anyway.
    net::SetNonBlocking(s->src);
    net::SetNonBlocking(s->dst);
    s->notify = Napi::ThreadSafeFunction::New(env, info[2].As<Napi::Function>(), "longhaul-relay", 0, 1);
    state_ = s;
    std::thread(Run, s).detach();
  }

  ~Relay() {
    if (state_) {
      state_->stop.store(true);
      Wake(state_.get());
    }
  }

 private:
  static bool Offset(const Napi::CallbackInfo& info, uint64_t* out) {
    if (info.Length() < 1 || !info[0].IsNumber()) return false;
    double v = info[0].As<Napi::Number>().DoubleValue();
    if (!(v >= 0)) return false;
    *out = static_cast<uint64_t>(v);
    return true;
  }

  // setReadLimit(offset): read from the source until `offset` bytes in all.
  Napi::Value SetReadLimit(const Napi::CallbackInfo& info) {
    uint64_t v = 0;
    if (state_ && Offset(info, &v)) {
      state_->readLimit.store(v, std::memory_order_seq_cst);
      Wake(state_.get());
    }
    return info.Env().Undefined();
  }

  // release(offset): the sink may have everything up to `offset` bytes (never beyond what was read).
  Napi::Value Release(const Napi::CallbackInfo& info) {
    uint64_t v = 0;
    if (state_ && Offset(info, &v)) {
      state_->released.store(v, std::memory_order_seq_cst);
      Wake(state_.get());
    }
    return info.Env().Undefined();
  }

  // finish(): send the FIN once every released byte is written.
  Napi::Value Finish(const Napi::CallbackInfo& info) {
    if (state_) {
      state_->finish.store(true, std::memory_order_seq_cst);
      Wake(state_.get());
    }
    return info.Env().Undefined();
  }

  // stop(): end now (teardown); the thread closes its descriptors and notifies with kEnded.
  Napi::Value Stop(const Napi::CallbackInfo& info) {
    if (state_) {
      state_->stop.store(true, std::memory_order_seq_cst);
      Wake(state_.get());
    }
    return info.Env().Undefined();
  }

  std::shared_ptr<RelayState> state_;
};

}  // namespace

void RegisterRelay(Napi::Env env, Napi::Object exports) { exports.Set("Relay", Relay::Define(env)); }
#else
void RegisterRelay(Napi::Env, Napi::Object) {}
#endif

}  // namespace lh
