// CPU time of the calling thread (user + system), for the byte loops to say
// what moving a run's bytes cost on this PC: a sender or reader thread at one
// core is a CPU limit, whatever the verdict on the path.
//
// Read inside the thread itself, at the start and at the end of its loop
// (never per send or recv: on Linux CLOCK_THREAD_CPUTIME_ID is a real system
// call, not a vDSO read). Returns a negative number where the OS does not say.
#pragma once

#include <cstdint>

#ifdef _WIN32
#include <windows.h>
#elif defined(__APPLE__)
#include <mach/mach.h>
#else
#include <time.h>
#endif

namespace lh {

// Nanoseconds of CPU this thread has used since it began; -1 when unknown.
inline int64_t ThreadCpuNs() {
#ifdef _WIN32
  // Kernel and user time in 100 ns units (implemented by Wine as well, from the kernel's per-thread counters).
  FILETIME created, exited, kernel, user;
  if (!GetThreadTimes(GetCurrentThread(), &created, &exited, &kernel, &user)) return -1;
  auto ticks = [](const FILETIME& f) { return (static_cast<int64_t>(f.dwHighDateTime) << 32) | f.dwLowDateTime; };
  return (ticks(kernel) + ticks(user)) * 100;
#elif defined(__APPLE__)
  mach_port_t self = mach_thread_self();
  thread_basic_info_data_t info;
  mach_msg_type_number_t count = THREAD_BASIC_INFO_COUNT;
  kern_return_t kr = thread_info(self, THREAD_BASIC_INFO, reinterpret_cast<thread_info_t>(&info), &count);
  mach_port_deallocate(mach_task_self(), self);
  if (kr != KERN_SUCCESS) return -1;
  return (static_cast<int64_t>(info.user_time.seconds) + info.system_time.seconds) * 1000000000LL +
         (static_cast<int64_t>(info.user_time.microseconds) + info.system_time.microseconds) * 1000LL;
#else
  timespec ts;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return -1;
  return static_cast<int64_t>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
#endif
}

}  // namespace lh
