// kv_files.h: a key-value store kept as files in a directory, as the PJRT
// client's distributed store behaves (a key is written once, get waits for
// it), for gpu/ffitest's drivers of several processes; and the names of the
// host link's shared-memory segments the store holds.
#ifndef KV_FILES_H
#define KV_FILES_H

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

static std::string kv_dir;

static char *dup_str(const std::string &s) {
  char *p = static_cast<char *>(std::malloc(s.size() + 1));
  std::memcpy(p, s.data(), s.size());
  p[s.size()] = '\0';
  return p;
}

static std::string kv_path(const char *key, size_t n) {
  std::string name(key, n);
  for (char &ch : name)
    if (ch == '/') ch = '!';
  return kv_dir + "/" + name;
}

// put: the value goes to a private file, then is linked to the key's name,
// which fails if the key exists (the store has no overwrite).
static int kv_put(void *, const char *key, size_t key_size, const char *value, size_t value_size, char **err) {
  const std::string path = kv_path(key, key_size), tmp = path + ".tmp" + std::to_string(getpid());
  int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd < 0 || write(fd, value, value_size) != static_cast<ssize_t>(value_size) || close(fd) != 0) {
    *err = dup_str("cannot write " + tmp);
    return 1;
  }
  int rc = link(tmp.c_str(), path.c_str());
  unlink(tmp.c_str());
  if (rc != 0) {
    *err = dup_str("ALREADY_EXISTS: " + std::string(key, key_size));
    return 1;
  }
  return 0;
}

static int kv_get(void *, const char *key, size_t key_size, int timeout_ms, char **value, size_t *value_size,
                  char **err) {
  const std::string path = kv_path(key, key_size);
  auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    FILE *f = std::fopen(path.c_str(), "rb");
    if (f != nullptr) {
      std::string v;
      char buf[4096];
      size_t n;
      while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) v.append(buf, n);
      std::fclose(f);
      *value = dup_str(v);
      *value_size = v.size();
      return 0;
    }
    if (std::chrono::steady_clock::now() >= until) {
      *err = dup_str("DEADLINE_EXCEEDED: " + std::string(key, key_size) + " not found");
      return 1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

// shm_names_left counts the segments named in the store (K/shm/0) that are
// still linked in /dev/shm.
static int shm_names_left() {
  int left = 0;
  DIR *d = opendir(kv_dir.c_str());
  for (struct dirent *e; d != nullptr && (e = readdir(d)) != nullptr;) {
    const std::string n = e->d_name, tail = "!shm!0";
    if (n.size() < tail.size() || n.compare(n.size() - tail.size(), tail.size(), tail) != 0) continue;
    std::ifstream f(kv_dir + "/" + n);
    std::string v((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    const size_t at = v.find(" name=/");
    if (at != std::string::npos && access(("/dev/shm/" + v.substr(at + 7)).c_str(), F_OK) == 0) left++;
  }
  if (d != nullptr) closedir(d);
  return left;
}

#endif
