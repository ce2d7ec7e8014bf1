/* Stands in for libampprof_inject.so in the shim's tests: its ampprof_collector_finish appends
   "finish <pid>" to the file named by FAKE_INJECTION_LOG, so a test sees whether, and how often, the
   shim's Python atexit function asked the collector to finish. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int ampprof_collector_finish(void) {
  const char* log = getenv("FAKE_INJECTION_LOG");
  if (log == NULL) return 0;
  FILE* file = fopen(log, "a");
  if (file == NULL) return 0;
  fprintf(file, "finish %d\n", (int)getpid());
  fclose(file);
  return 1;
}
