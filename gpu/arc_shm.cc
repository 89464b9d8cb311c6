// arc_shm.cc: POSIX shared memory for the host-staged link across processes
// (arc_internal.h's arc_shm_*). Host code only, the same for CUDA and HIP:
// the device runtime registers the mapping (arc_dev_host_register), and
// arc_comm.cc decides who creates, who opens and when the name goes.
//
// What keeps /dev/shm clean: the name is removed as soon as every process of
// the group mapped the segment (arc_comm.cc), by every process that learnt it,
// and by any process whose creation fails, so the memory lives as long as the
// mappings and no longer, whichever process dies. The name holds the
// communicator's key, the creator's pid and a random nonce, and is created
// O_EXCL: a name left by a process that died between creating it and
// publishing it (microseconds) is never taken for a live one, and a peer opens
// only the name the store gave it for this communicator.

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "arc_internal.h"

static int shm_fail(const std::string &msg) { return arc_set_error(ARC_ERR_RENDEZVOUS, msg); }

static std::string errno_text(int e) { return std::string(strerror(e)); }

bool arc_shm_name_ok(const std::string &name) {
  if (name.size() < 6 || name.size() > 250 || name.compare(0, 5, "/arc-") != 0) return false;
  for (size_t i = 1; i < name.size(); i++) {
    const char ch = name[i];
    if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' ||
          ch == '-'))
      return false;
  }
  return true;
}

/* 64 random bits: /dev/urandom, else the clock and an address. */
static uint64_t nonce() {
  uint64_t v = 0;
  int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    ssize_t n = read(fd, &v, sizeof v);
    close(fd);
    if (n == (ssize_t)sizeof v) return v;
  }
  v = (uint64_t)std::chrono::steady_clock::now().time_since_epoch().count();
  return v ^ (uint64_t)(uintptr_t)&v * 0x9E3779B97F4A7C15ull;
}

/* "/arc-<key>-<pid>-<nonce>": the key's characters outside [A-Za-z0-9._-]
 * become '.', and a long key keeps its first 120 and its hash. */
static std::string make_name(const std::string &key) {
  std::string k;
  for (char ch : key) {
    const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' ||
                    ch == '-';
    k += ok ? ch : '.';
  }
  if (k.size() > 120) {
    uint64_t h = 1469598103934665603ull;
    for (unsigned char ch : key) h = (h ^ ch) * 1099511628211ull;
    char hs[20];
    snprintf(hs, sizeof hs, ".%016llx", (unsigned long long)h);
    k = k.substr(0, 120) + hs;
  }
  char tail[64];
  snprintf(tail, sizeof tail, "-%ld-%016llx", (long)getpid(), (unsigned long long)nonce());
  return "/arc-" + k + tail;
}

static int map(arc_shm *s, int fd, size_t bytes, const std::string &name) {
  void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) return shm_fail("mapping the shared memory " + name + ": " + errno_text(errno));
  s->base = p;
  s->bytes = bytes;
  return ARC_OK;
}

int arc_shm_create(arc_shm *s, const std::string &key, size_t bytes) {
  const std::string name = make_name(key);
  int fd = shm_open(name.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
  if (fd < 0) return shm_fail("creating the shared memory " + name + ": " + errno_text(errno));
  s->name = name; /* linked from here on: arc_shm_unlink removes it, on success or failure */
  /* The umask may have taken bits off 0600 (peers open it read-write). */
  if (fchmod(fd, 0600) != 0 || ftruncate(fd, (off_t)bytes) != 0) {
    const int e = errno;
    close(fd);
    return shm_fail("sizing the shared memory " + name + ": " + errno_text(e));
  }
  /* Reserve every page now: a tmpfs that is too small fails here with
   * ENOSPC, not with SIGBUS when a page is first touched. */
  int e = posix_fallocate(fd, 0, (off_t)bytes);
  if (e != 0 && e != EOPNOTSUPP && e != EINVAL) {
    close(fd);
    return shm_fail("no room for " + std::to_string(bytes) + " bytes of shared memory in /dev/shm (" + errno_text(e) +
                    "): enlarge it (a container's --shm-size) or lower ARC_MAX_BYTES, which sizes the host-staged "
                    "link's buffers");
  }
  int rc = map(s, fd, bytes, name);
  close(fd);
  return rc;
}

int arc_shm_open(arc_shm *s, const std::string &name, size_t bytes) {
  if (!arc_shm_name_ok(name)) return shm_fail("not a name of arc's shared memory: \"" + name + "\"");
  s->name = name; /* a process that fails from here on removes it too: the group is off */
  int fd = shm_open(name.c_str(), O_RDWR, 0);
  if (fd < 0) return shm_fail("opening the shared memory " + name + ": " + errno_text(errno));
  struct stat st;
  std::string why;
  if (fstat(fd, &st) != 0)
    why = errno_text(errno);
  else if (!S_ISREG(st.st_mode))
    why = "not a regular file";
  else if (st.st_uid != geteuid())
    why = "owned by user " + std::to_string((long)st.st_uid) + ", not " + std::to_string((long)geteuid());
  else if ((st.st_mode & 077) != 0)
    why = "others may open it (mode " + std::to_string((int)(st.st_mode & 0777)) + ")";
  else if ((uint64_t)st.st_size != (uint64_t)bytes)
    why = std::to_string((long long)st.st_size) + " bytes, planned " + std::to_string(bytes);
  if (!why.empty()) {
    close(fd);
    return shm_fail("the shared memory " + name + ": " + why);
  }
  int rc = map(s, fd, bytes, name);
  close(fd);
  return rc;
}

void arc_shm_unlink(arc_shm *s) {
  if (s->name.empty()) return;
  (void)shm_unlink(s->name.c_str()); /* ENOENT: a peer removed it first */
  s->name.clear();
}

void arc_shm_unmap(arc_shm *s) {
  if (s->base != nullptr) (void)munmap(s->base, s->bytes);
  s->base = nullptr;
  s->bytes = 0;
}
