// What a native byte loop shares between its JS object (stream_pump.cc's Pump), the senders'
// thread (sender_group.cc) and the receivers' threads: the stream's state and the end of a loop.
#pragma once

#include <napi.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "lh_net.h"

namespace lh {

// Every wait of a loop is bounded by this, then the stop flag and the deadline are checked again.
constexpr int kPollMs = 50;

// A sender's path (PumpState::path): not decided yet, send() from memory, sendfile(2) from the payload file.
constexpr int kPathUndecided = 0;
constexpr int kPathCopy = 1;
constexpr int kPathSendfile = 2;

// Why a loop ended.
enum class EndReason { kNone, kEof, kBudget, kDeadline, kStopped, kError };

// Shared between the JS object and its thread; whichever lets go last frees it.
struct PumpState {
  net::Sock fd = net::kBadSock;
  bool send = false;
  size_t bufferBytes = 0;
  int64_t budgetBytes = -1;  // -1: no byte budget
  bool batchReads = false;   // receiver: adapt SO_RCVLOWAT to the rate
  double pacingBytesPerSec = 0;  // sender: Longhaul's own pacing (lh_pacer.h); 0: none
  uint64_t deadlineNs = 0;   // net::MonoNs(); 0: none
  bool zeroCopy = false;     // sender: -Z asked: sendfile(2) from the payload file (lh_payload_file.h) where it can
  // Sender: which call moves the bytes, once the sender thread has taken the stream on: kPathCopy or
  // kPathSendfile. `copyReason` (why -Z was not honoured) is written before `path` is stored (release).
  std::atomic<int> path{0};
  std::string copyReason;
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
  // The same thread's run-queue wait (ThreadWaitNs) at the same two moments; -1 = unknown.
  std::atomic<int64_t> waitStartNs{-1};
  std::atomic<int64_t> waitEndNs{-1};
  EndReason reason = EndReason::kNone;
  int err = 0;
  const char* where = "";
  Napi::ThreadSafeFunction done;
};

// A number for each byte-loop thread of this process, so the JS side can tell which streams shared one.
uint32_t NextThreadSerial();

// This thread takes `s` on: note which thread it is and the CPU it has used so far.
void TakeOn(PumpState* s, uint32_t thread);

// Hand the end to JS (once) and let go of the socket. Runs on the loop's own thread.
void Finish(const std::shared_ptr<PumpState>& s, EndReason reason, int err = 0, const char* where = "");

// Give a sending stream to the process's one sender thread (sender_group.cc), starting it if needed.
void AddSender(std::shared_ptr<PumpState> s);

}  // namespace lh
