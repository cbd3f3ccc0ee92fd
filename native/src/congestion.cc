// The congestion control of one socket: TCP_CONGESTION on Linux, read so a result can say
// which algorithm a sender ran (BBR and CUBIC meet the same path very differently), and set
// per socket (before connect, or on a listener: accepted sockets inherit it) so a test can
// choose it without touching the host's default. A process may set only what
// net.ipv4.tcp_allowed_congestion_control lists, unless it has CAP_NET_ADMIN.
//
// Windows and macOS have no per-socket equivalent (Windows chooses per TCP template,
// macOS per host): there `congestionControlSupported` is false and the functions are absent.
//
// Kept in its own file with its own N-API wrappers so that addon.cc only gains one
// registration call.
#include <napi.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "lh_napi.h"

#if defined(__linux__)
#include <netinet/in.h>
#include <netinet/tcp.h>  // TCP_CONGESTION
#include <sys/socket.h>
#endif

namespace lh {

#if defined(__linux__) && defined(TCP_CONGESTION)

namespace {

// The kernel's TCP_CA_NAME_MAX: names are at most 15 characters and a NUL.
constexpr socklen_t kNameMax = 16;

// getCongestion(fd) -> the algorithm's name, e.g. "cubic" or "bbr".
Napi::Value GetCongestion(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  SockHandle s;
  if (info.Length() < 1 || !ReadSock(info[0], &s)) {
    Napi::TypeError::New(env, "getCongestion(fd): fd must be a non-negative number").ThrowAsJavaScriptException();
    return env.Undefined();
  }
  char name[kNameMax + 1];
  memset(name, 0, sizeof name);
  socklen_t len = kNameMax;
  if (getsockopt(s, IPPROTO_TCP, TCP_CONGESTION, name, &len) != 0) {
    OsErrorValue(env, errno, "getsockopt(TCP_CONGESTION)").ThrowAsJavaScriptException();
    return env.Undefined();
  }
  // The kernel copies `len` bytes of a NUL-padded array: the name ends at the first NUL.
  return Napi::String::New(env, std::string(name, strnlen(name, len)));
}

// setCongestion(fd, name): throws ENOENT for an algorithm the kernel does not have, EPERM for
// one this process may not choose.
Napi::Value SetCongestion(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  SockHandle s;
  if (info.Length() < 2 || !ReadSock(info[0], &s) || !info[1].IsString() || info[1].As<Napi::String>().Utf8Value().size() >= kNameMax) {
    Napi::TypeError::New(env, "setCongestion(fd, name): a non-negative fd and a name of at most 15 characters expected").ThrowAsJavaScriptException();
    return env.Undefined();
  }
  std::string name = info[1].As<Napi::String>().Utf8Value();
  if (setsockopt(s, IPPROTO_TCP, TCP_CONGESTION, name.c_str(), static_cast<socklen_t>(name.size())) != 0) {
    OsErrorValue(env, errno, "setsockopt(TCP_CONGESTION)").ThrowAsJavaScriptException();
  }
  return env.Undefined();
}

}  // namespace

void RegisterCongestion(Napi::Env env, Napi::Object exports) {
  exports.Set("congestionControlSupported", Napi::Boolean::New(env, true));
  exports.Set("getCongestion", Napi::Function::New(env, GetCongestion, "getCongestion"));
  exports.Set("setCongestion", Napi::Function::New(env, SetCongestion, "setCongestion"));
}

#else

void RegisterCongestion(Napi::Env env, Napi::Object exports) { exports.Set("congestionControlSupported", Napi::Boolean::New(env, false)); }

#endif

}  // namespace lh
