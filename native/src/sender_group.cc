// The senders' byte loop (stream_pump.cc describes both loops): one thread per process serves
// every sending stream round-robin, with Longhaul's own pacing (lh_pacer.h) where asked.
#include <algorithm>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "lh_net.h"
#include "lh_pacer.h"
#include "lh_payload_file.h"
#include "lh_pump_state.h"
#include "lh_socket.h"
#include "lh_thread_name.h"

namespace lh {
namespace {

// All senders of this process share ONE thread, which serves their sockets
// round-robin, one send() per stream per turn, and sleeps in poll() only when
// every socket is full (iperf3's structure): one sender thread keeps the
// receivers' core free (docs/measurements.md#one-sender-thread).
class SenderGroup {
 public:
  // Every payload byte: the same from memory and from the payload file.
  static constexpr unsigned char kPattern = 0x5a;

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
    bool byFile = false;  // -Z: sendfile(2) from the payload file instead of send()
    bool fileMoved = false;  // sendfile(2) has moved bytes: a refusal now is an error, not a reason to copy
  };

  // The stream's path, decided as the thread takes it on: sendfile where -Z asked and the payload file
  // holds a buffer's worth, else copying (with the reason when -Z was asked).
  static void ChoosePath(Stream& st, PayloadFile& file) {
    PumpState* s = st.s.get();
    if (s->zeroCopy) {
      std::string why;
      if (file.Ensure(s->bufferBytes, kPattern, &why)) {
        st.byFile = true;
        s->path.store(kPathSendfile, std::memory_order_release);
        return;
      }
      s->copyReason = why;
    }
    s->path.store(kPathCopy, std::memory_order_release);
  }

  // sendfile(2) refused this socket before moving a byte: copy from now on, saying why.
  static void CopyInstead(Stream& st, int err) {
    st.byFile = false;
    st.s->copyReason = "sendfile(2) refused the socket (" + ErrorText(err) + "); copied with send()";
    st.s->path.store(kPathCopy, std::memory_order_release);
  }

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
  static bool Turn(Stream& st, const std::vector<char>& payload, const PayloadFile& file, bool* progress) {
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
    // The file holds the same bytes as `payload` at the same offsets: only the call differs.
    long long n = st.byFile ? file.SendSome(s->fd, st.off, chunk) : net::SendSome(s->fd, payload.data() + st.off, chunk);
    if (n < 0 && st.byFile && !st.fileMoved && SendFileRefused(net::LastError())) {
      CopyInstead(st, net::LastError());
      *progress = true;
      return true;
    }
    if (n > 0 && st.byFile) st.fileMoved = true;
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
    Finish(st.s, EndReason::kError, n < 0 ? e : net::kConnReset, st.byFile ? "sendfile" : "send");
    return false;
  }

  static void Run() {
    NameThisThread("lh-send");
    ShieldThreadFromSigpipe();
    std::vector<Stream> streams;
    std::vector<char> payload;
    PayloadFile file;  // opened by the first -Z stream, grown with the largest buffer
    std::vector<net::PollFd> fds;
    const uint32_t thread = NextThreadSerial();
    for (;;) {
      {
        std::lock_guard<std::mutex> lock(mu_);
        for (auto& s : pending_) {
          TakeOn(s.get(), thread);
          if (payload.size() < s->bufferBytes) payload.assign(s->bufferBytes, static_cast<char>(kPattern));
          Stream st;
          st.s = std::move(s);
          if (st.s->pacingBytesPerSec > 0) st.pacer = Pacer(st.s->pacingBytesPerSec, net::MonoNs());
          ChoosePath(st, file);
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
        if (Turn(streams[i], payload, file, &progress)) {
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

}  // namespace

void AddSender(std::shared_ptr<PumpState> s) { SenderGroup::Add(std::move(s)); }

}  // namespace lh
