/* A stand-in NVTX library for the shim's tests: the domain calls the shim makes through ctypes, each
 * written as one line to the file named by FAKE_NVTX_LOG. The attribute struct mirrors
 * nvtxEventAttributes_v2 in nvtx3/nvToolsExt.h; the test checks the size and version the shim passes. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  uint16_t version;
  uint16_t size;
  uint32_t category;
  int32_t colorType;
  uint32_t color;
  int32_t payloadType;
  int32_t reserved0;
  uint64_t payload;
  int32_t messageType;
  const char* message;
} EventAttributes;

_Static_assert(sizeof(EventAttributes) == 48, "nvtxEventAttributes_v2 is 48 bytes");
_Static_assert(offsetof(EventAttributes, message) == 40, "the message is at offset 40");

static uint64_t next_range_id = 100;

static void Log(const char* format, ...) __attribute__((format(printf, 1, 2)));

static void Log(const char* format, ...) {
  const char* path = getenv("FAKE_NVTX_LOG");
  if (path == NULL) return;
  FILE* file = fopen(path, "a");
  if (file == NULL) return;
  va_list args;
  va_start(args, format);
  vfprintf(file, format, args);
  va_end(args);
  fputc('\n', file);
  fclose(file);
}

static const char* Message(const EventAttributes* a) {
  return a->messageType == 1 && a->message != NULL ? a->message : "?";
}

void* nvtxDomainCreateA(const char* name) {
  Log("create %s", name);
  return (void*)0x1234;
}

int nvtxDomainRangePushEx(void* domain, const EventAttributes* a) {
  Log("push %p %s v%u s%u", domain, Message(a), a->version, a->size);
  return 0;
}

int nvtxDomainRangePop(void* domain) {
  Log("pop %p", domain);
  return 0;
}

uint64_t nvtxDomainRangeStartEx(void* domain, const EventAttributes* a) {
  ++next_range_id;
  Log("start %p %s %llu", domain, Message(a), (unsigned long long)next_range_id);
  return next_range_id;
}

void nvtxDomainRangeEnd(void* domain, uint64_t id) { Log("end %p %llu", domain, (unsigned long long)id); }
