// The two N-API helpers every binding file needs, defined once in addon.cc: an OS error as a
// JS Error (message, `errno`, `syscall`; `code: 'ETIMEDOUT'` for a timeout) and a socket
// handle read from a JS number (a descriptor, or a SOCKET on Windows).
#pragma once

#include <napi.h>

#include <string>

#include "lh_socket.h"

namespace lh {

Napi::Error OsErrorValue(Napi::Env env, int code, const std::string& where);
// False unless `v` is a non-negative number.
bool ReadSock(const Napi::Value& v, SockHandle* out);

}  // namespace lh
