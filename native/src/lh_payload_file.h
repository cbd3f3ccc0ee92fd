// The zero-copy sender's source (-Z, --zerocopy): a memory file holding the payload pattern, which
// the senders' thread (sender_group.cc) hands to each socket with sendfile(2) instead of send(), as
// iperf3 -Z does. The kernel then takes the file's pages into the socket without copying them from
// user memory. Linux only; elsewhere Ensure() says why not and the senders copy.
#pragma once

#include <cstddef>
#include <string>

#include "lh_net.h"

namespace lh {

class PayloadFile {
 public:
  PayloadFile() = default;
  PayloadFile(const PayloadFile&) = delete;
  PayloadFile& operator=(const PayloadFile&) = delete;
  ~PayloadFile();

  // Make the file hold at least `bytes` bytes of `pattern` (it only grows, so offsets already in use
  // stay valid). False, with the reason in `why`, when this OS or this system cannot.
  bool Ensure(size_t bytes, unsigned char pattern, std::string* why);

  // sendfile(2) of `len` bytes from offset `off` to `sock`: the bytes the kernel took, or -1 with
  // net::LastError() (EAGAIN on a full non-blocking socket, as send()).
  long long SendSome(net::Sock sock, size_t off, size_t len) const;

 private:
  int fd_ = -1;
  size_t bytes_ = 0;
};

// sendfile(2) cannot serve this socket or file at all (not a transient error): copy instead.
bool SendFileRefused(int err);

// sendfile(2) has no MSG_NOSIGNAL: a reset peer would raise SIGPIPE. Called on the senders' thread,
// it blocks SIGPIPE there, so the call returns EPIPE as send() does (Node ignores SIGPIPE anyway).
void ShieldThreadFromSigpipe();

}  // namespace lh
