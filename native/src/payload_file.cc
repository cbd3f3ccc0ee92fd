// The zero-copy sender's memory file (lh_payload_file.h).
#include "lh_payload_file.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "lh_socket.h"

#ifdef __linux__
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <unistd.h>
#endif

namespace lh {

#ifdef __linux__

namespace {

// A memfd where the kernel has them (3.17+); else an unnamed file in the temp folder (O_TMPFILE,
// 3.11+); else a named one, unlinked at once. -1 with `why` when none can be made.
int OpenFile(std::string* why) {
  int fd = memfd_create("longhaul-payload", MFD_CLOEXEC);
  if (fd >= 0) return fd;
  std::string memfdWhy = "memfd_create: " + ErrorText(errno);
  const char* env = std::getenv("TMPDIR");
  std::string dir = env && *env ? env : "/tmp";
  fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0) return fd;
  std::string name = dir + "/longhaul-payload-XXXXXX";
  std::vector<char> path(name.begin(), name.end());
  path.push_back('\0');
  fd = mkostemp(path.data(), O_CLOEXEC);
  if (fd >= 0) {
    ::unlink(path.data());
    return fd;
  }
  *why = memfdWhy + "; a temporary file in " + dir + ": " + ErrorText(errno);
  return -1;
}

}  // namespace

PayloadFile::~PayloadFile() {
  if (fd_ >= 0) ::close(fd_);
}

bool PayloadFile::Ensure(size_t bytes, unsigned char pattern, std::string* why) {
  if (fd_ < 0) {
    fd_ = OpenFile(why);
    if (fd_ < 0) return false;
  }
  std::vector<char> block(std::min<size_t>(bytes, 1 << 20), static_cast<char>(pattern));
  while (bytes_ < bytes) {
    size_t n = std::min(block.size(), bytes - bytes_);
    ssize_t w = ::pwrite(fd_, block.data(), n, static_cast<off_t>(bytes_));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      *why = "writing the payload file: " + ErrorText(w < 0 ? errno : EIO);
      return false;
    }
    bytes_ += static_cast<size_t>(w);
  }
  return true;
}

long long PayloadFile::SendSome(net::Sock sock, size_t off, size_t len) const {
  off_t at = static_cast<off_t>(off);
  return ::sendfile(sock, fd_, &at, len);
}

bool SendFileRefused(int err) { return err == EINVAL || err == ENOSYS || err == EOPNOTSUPP; }

void ShieldThreadFromSigpipe() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

#else

PayloadFile::~PayloadFile() {}

bool PayloadFile::Ensure(size_t, unsigned char, std::string* why) {
#ifdef _WIN32
  *why = "-Z on Windows: TransmitFile is not built yet; copied with send()";
#else
  *why = "-Z on this OS: only Linux's sendfile(2) is built; copied with send()";
#endif
  return false;
}

long long PayloadFile::SendSome(net::Sock, size_t, size_t) const { return -1; }

bool SendFileRefused(int) { return true; }

void ShieldThreadFromSigpipe() {}

#endif

}  // namespace lh
