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
#include <fcntl.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
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

// Nanoseconds this thread has been ready to run but waited for a core since it began (Linux
// schedstat's run-queue wait, which includes time a CPU quota held it back); -1 when unknown (other
// OSes). A reader that always had data yet mostly waited was starved of CPU: a 5 % cgroup quota left
// a reader thread runnable 94 % of the time and running 5 %.
inline int64_t ThreadWaitNs() {
#if defined(__linux__)
  int fd = ::open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char buf[128];
  ssize_t n = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  if (n <= 0) return -1;
  buf[n] = '\0';
  char* end = nullptr;
  strtoll(buf, &end, 10);  // time on the CPU (ThreadCpuNs says that)
  if (end == buf) return -1;
  char* wait_end = nullptr;
  long long wait = strtoll(end, &wait_end, 10);
  return wait_end == end ? -1 : static_cast<int64_t>(wait);
#else
  return -1;
#endif
}

}  // namespace lh
