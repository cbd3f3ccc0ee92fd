// Names the calling thread so that the OS's tools (top -H, perf, ps -L; Process Explorer and
// debuggers on Windows) tell Longhaul's data threads from Node's: "lh-send", "lh-recv",
// "lh-udp-send", "lh-relay". Best effort: where the OS refuses, the thread keeps its old name.
#pragma once

#ifdef _WIN32
#include <windows.h>
#else
#include <pthread.h>
#endif

namespace lh {

// `name`: ASCII, at most 15 characters (Linux's limit).
inline void NameThisThread(const char* name) {
#ifdef _WIN32
  // SetThreadDescription exists from Windows 10 1607; looked up so that older systems still load the addon.
  using SetDescription = HRESULT(WINAPI*)(HANDLE, PCWSTR);
  HMODULE kernel = GetModuleHandleW(L"kernel32.dll");
  if (!kernel) return;
  auto set = reinterpret_cast<SetDescription>(reinterpret_cast<void*>(GetProcAddress(kernel, "SetThreadDescription")));
  if (!set) return;
  wchar_t wide[16] = {0};
  for (int i = 0; i < 15 && name[i]; i++) wide[i] = static_cast<wchar_t>(name[i]);
  set(GetCurrentThread(), wide);
#elif defined(__APPLE__)
  pthread_setname_np(name);
#else
  pthread_setname_np(pthread_self(), name);
#endif
}

}  // namespace lh
