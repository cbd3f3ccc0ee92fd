// The advertised-window request of `--window W` on Linux: TCP_WINDOW_CLAMP
// (the most the receiver advertises), and buffers above net.core.*mem_max
// for a process that may (SO_*BUFFORCE needs CAP_NET_ADMIN). Elsewhere these
// functions say they are not supported, and callers keep buffer-only windows.
//
// Kept in its own file with its own N-API wrappers so that addon.cc only
// gains one registration call.
#include <napi.h>

#include <cerrno>
#include <cstring>
#include <string>

#ifndef _WIN32
#include <netinet/in.h>
#include <netinet/tcp.h>  // TCP_WINDOW_CLAMP, TCP_NOTSENT_LOWAT
#include <sys/socket.h>
#endif

namespace {

Napi::Value ThrowErrno(Napi::Env env, int code, const char* where) {
  Napi::Error err = Napi::Error::New(env, std::string(where) + ": " + strerror(code));
  err.Set("errno", Napi::Number::New(env, code));
  err.Set("syscall", Napi::String::New(env, where));
  err.ThrowAsJavaScriptException();
  return env.Undefined();
}

bool ReadInts(const Napi::CallbackInfo& info, size_t n, int64_t* out) {
  if (info.Length() < n) return false;
  for (size_t i = 0; i < n; i++) {
    if (!info[i].IsNumber()) return false;
    out[i] = info[i].As<Napi::Number>().Int64Value();
    if (out[i] < 0 || out[i] > 0x7fffffff) return false;
  }
  return true;
}

// ReadInts, or throw a TypeError with `usage` and return false.
bool ArgsOr(const Napi::CallbackInfo& info, size_t n, int64_t* out, const char* usage) {
  if (ReadInts(info, n, out)) return true;
  Napi::TypeError::New(info.Env(), usage).ThrowAsJavaScriptException();
  return false;
}

// (fd, bytes) -> setsockopt(fd, IPPROTO_TCP, option, bytes). option < 0: not on this OS
// (throws ENOTSUP naming `unsupported`). `usage` is the TypeError for a bad call.
Napi::Value SetTcpInt(const Napi::CallbackInfo& info, int option, const char* usage, const char* where, const char* unsupported) {
  Napi::Env env = info.Env();
  int64_t a[2];
  if (!ArgsOr(info, 2, a, usage)) return env.Undefined();
#ifndef _WIN32
  if (option >= 0) {
    int v = static_cast<int>(a[1]);
    if (setsockopt(static_cast<int>(a[0]), IPPROTO_TCP, option, &v, sizeof v) != 0) return ThrowErrno(env, errno, where);
    return env.Undefined();
  }
#endif
  return ThrowErrno(env, ENOTSUP, unsupported);
}

#if defined(__linux__)
constexpr int kWindowClamp = TCP_WINDOW_CLAMP;
#else
constexpr int kWindowClamp = -1;
#endif
#if defined(TCP_NOTSENT_LOWAT)
constexpr int kNotSentLowat = TCP_NOTSENT_LOWAT;
#else
constexpr int kNotSentLowat = -1;
#endif

// setWindowClamp(fd, bytes): TCP_WINDOW_CLAMP. Before the handshake it also bounds the window scale.
Napi::Value SetWindowClamp(const Napi::CallbackInfo& info) {
  return SetTcpInt(info, kWindowClamp, "setWindowClamp(fd, bytes): two non-negative numbers expected",
                   "setsockopt(TCP_WINDOW_CLAMP)", "TCP_WINDOW_CLAMP (Linux only)");
}

// getWindowClamp(fd) -> bytes the kernel clamps the advertised window to now.
Napi::Value GetWindowClamp(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  int64_t a[1];
  if (!ArgsOr(info, 1, a, "getWindowClamp(fd): fd must be a non-negative number")) return env.Undefined();
#ifdef __linux__
  int v = 0;
  socklen_t len = sizeof v;
  if (getsockopt(static_cast<int>(a[0]), IPPROTO_TCP, TCP_WINDOW_CLAMP, &v, &len) != 0) {
    return ThrowErrno(env, errno, "getsockopt(TCP_WINDOW_CLAMP)");
  }
  return Napi::Number::New(env, v);
#else
  return ThrowErrno(env, ENOTSUP, "TCP_WINDOW_CLAMP (Linux only)");
#endif
}

// setBuffersForce(fd, sndBufBytes, rcvBufBytes): SO_SNDBUFFORCE / SO_RCVBUFFORCE (0 leaves a size alone).
// Unlike SO_*BUF they are not capped by net.core.wmem_max / rmem_max; EPERM without CAP_NET_ADMIN.
Napi::Value SetBuffersForce(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  int64_t a[3];
  if (!ArgsOr(info, 3, a, "setBuffersForce(fd, sndBufBytes, rcvBufBytes): three non-negative numbers expected")) return env.Undefined();
#ifdef __linux__
  int fd = static_cast<int>(a[0]);
  if (a[1] > 0) {
    int v = static_cast<int>(a[1]);
    if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &v, sizeof v) != 0) return ThrowErrno(env, errno, "setsockopt(SO_SNDBUFFORCE)");
  }
  if (a[2] > 0) {
    int v = static_cast<int>(a[2]);
    if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &v, sizeof v) != 0) return ThrowErrno(env, errno, "setsockopt(SO_RCVBUFFORCE)");
  }
  return env.Undefined();
#else
  return ThrowErrno(env, ENOTSUP, "SO_*BUFFORCE (Linux only)");
#endif
}

// setNotSentLowat(fd, bytes): TCP_NOTSENT_LOWAT (Linux, macOS): the socket takes more data only
// while fewer than `bytes` wait unsent, so a timed run stops with little left to drain.
Napi::Value SetNotSentLowat(const Napi::CallbackInfo& info) {
  return SetTcpInt(info, kNotSentLowat, "setNotSentLowat(fd, bytes): two non-negative numbers expected",
                   "setsockopt(TCP_NOTSENT_LOWAT)", "TCP_NOTSENT_LOWAT (Linux and macOS only)");
}

}  // namespace

namespace lh {

// Called once from addon.cc's Init.
void RegisterWindowClamp(Napi::Env env, Napi::Object exports) {
#ifdef __linux__
  exports.Set("windowClampSupported", Napi::Boolean::New(env, true));
#else
  exports.Set("windowClampSupported", Napi::Boolean::New(env, false));
#endif
  exports.Set("setWindowClamp", Napi::Function::New(env, SetWindowClamp, "setWindowClamp"));
  exports.Set("getWindowClamp", Napi::Function::New(env, GetWindowClamp, "getWindowClamp"));
  exports.Set("setBuffersForce", Napi::Function::New(env, SetBuffersForce, "setBuffersForce"));
#ifdef TCP_NOTSENT_LOWAT
  exports.Set("notSentLowatSupported", Napi::Boolean::New(env, true));
#else
  exports.Set("notSentLowatSupported", Napi::Boolean::New(env, false));
#endif
  exports.Set("setNotSentLowat", Napi::Function::New(env, SetNotSentLowat, "setNotSentLowat"));
}

}  // namespace lh
