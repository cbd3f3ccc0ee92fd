// The kernel's pacing of one socket: SO_MAX_PACING_RATE on Linux (bytes per second), which
// `--bitrate` sets on every sending stream. TCP paces by itself since Linux 4.13 (or the fq
// qdisc does), so the cap holds whatever the congestion control; TCP_INFO's
// tcpi_pacing_rate then reads at most this value, which is how a run checks what the
// kernel did. Elsewhere (Windows, macOS) `maxPacingRateSupported` is false and the byte loop
// paces itself (lh_pacer.h).
//
// Kept in its own file with its own N-API wrappers so that addon.cc only gains one
// registration call.
#include <napi.h>

#include <cerrno>
#include <cstdint>

#include "lh_napi.h"

#if defined(__linux__)
#include <sys/socket.h>
#endif

namespace lh {

#if defined(__linux__) && defined(SO_MAX_PACING_RATE)

namespace {

// setMaxPacingRate(fd, bytesPerSec): a 32-bit value where it fits (every kernel since 3.13
// takes that), 64 bits above 4 GB/s (kernels since 4.20).
Napi::Value SetMaxPacingRate(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  SockHandle s;
  if (info.Length() < 2 || !ReadSock(info[0], &s) || !info[1].IsNumber() || info[1].As<Napi::Number>().DoubleValue() < 1) {
    Napi::TypeError::New(env, "setMaxPacingRate(fd, bytesPerSec): a non-negative fd and a rate of at least 1 byte/s expected").ThrowAsJavaScriptException();
    return env.Undefined();
  }
  double rate = info[1].As<Napi::Number>().DoubleValue();
  int rc;
  if (rate < 4294967295.0) {
    uint32_t v = static_cast<uint32_t>(rate);
    rc = setsockopt(s, SOL_SOCKET, SO_MAX_PACING_RATE, &v, sizeof v);
  } else {
    uint64_t v = static_cast<uint64_t>(rate);
    rc = setsockopt(s, SOL_SOCKET, SO_MAX_PACING_RATE, &v, sizeof v);
  }
  if (rc != 0) OsErrorValue(env, errno, "setsockopt(SO_MAX_PACING_RATE)").ThrowAsJavaScriptException();
  return env.Undefined();
}

// getMaxPacingRate(fd) -> bytes per second (2^64-1 or 2^32-1: no cap).
Napi::Value GetMaxPacingRate(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  SockHandle s;
  if (info.Length() < 1 || !ReadSock(info[0], &s)) {
    Napi::TypeError::New(env, "getMaxPacingRate(fd): fd must be a non-negative number").ThrowAsJavaScriptException();
    return env.Undefined();
  }
  uint64_t v = 0;
  socklen_t len = sizeof v;
  if (getsockopt(s, SOL_SOCKET, SO_MAX_PACING_RATE, &v, &len) != 0) {
    OsErrorValue(env, errno, "getsockopt(SO_MAX_PACING_RATE)").ThrowAsJavaScriptException();
    return env.Undefined();
  }
  if (len == sizeof(uint32_t)) v &= 0xffffffffu;
  return Napi::Number::New(env, static_cast<double>(v));
}

}  // namespace

void RegisterPacingRate(Napi::Env env, Napi::Object exports) {
  exports.Set("maxPacingRateSupported", Napi::Boolean::New(env, true));
  exports.Set("setMaxPacingRate", Napi::Function::New(env, SetMaxPacingRate, "setMaxPacingRate"));
  exports.Set("getMaxPacingRate", Napi::Function::New(env, GetMaxPacingRate, "getMaxPacingRate"));
}

#else

void RegisterPacingRate(Napi::Env env, Napi::Object exports) { exports.Set("maxPacingRateSupported", Napi::Boolean::New(env, false)); }

#endif

}  // namespace lh
