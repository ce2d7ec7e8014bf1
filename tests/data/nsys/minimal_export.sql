-- A minimal Nsight Systems SQLite export, in the 2024-2025 schema (column sets as in the shared
-- fixtures). The test builds a database from this text; ids and values are made up.
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES (0, 'cudaLaunchKernel_v7000'), (1, 'ampere_sgemm_128x64_nn'),
  (2, 'sgemm'), (3, 'cudaMemcpyAsync_v3020'), (4, 'cudaStreamSynchronize_v3020'),
  (5, 'cuLaunchKernel'), (6, 'python3'), (7, 'train step'), (8, 'pt_main_thread');
CREATE TABLE TARGET_INFO_GPU (vmId INTEGER, id INTEGER, name TEXT, totalMemory INTEGER,
  smCount INTEGER, computeMajor INTEGER, computeMinor INTEGER, uuid TEXT, clockRate INTEGER);
INSERT INTO TARGET_INFO_GPU VALUES (0, 0, 'NVIDIA A100-SXM4-40GB', 42505273344, 108, 8, 0,
  'GPU-1234', 1410000000);
-- globalPid = pid << 24 (pid 1000); globalTid = globalPid + tid (tid 1001).
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER,
  contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER,
  demangledName INTEGER, shortName INTEGER, gridX INTEGER, gridY INTEGER, gridZ INTEGER,
  blockX INTEGER, blockY INTEGER, blockZ INTEGER, registersPerThread INTEGER,
  staticSharedMemory INTEGER, dynamicSharedMemory INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES
  (2000, 5000, 0, 1, 7, 10, 16777216000, 1, 2, 8, 16, 1, 128, 1, 1, 122, 12544, 0),
  (6000, 7000, 0, 1, 7, 11, 16777216000, NULL, 2, 1, 1, 1, 64, 1, 1, 16, 0, 0);
-- This version's runtime table has no returnValue column: it must read as NULL.
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, eventClass INTEGER,
  globalTid INTEGER, correlationId INTEGER, nameId INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1000, 1500, 0, 16777217001, 10, 0),
  (5500, 5800, 0, 16777217001, 11, 5), (7100, 7200, 0, 16777217001, 12, 3),
  (7300, 9000, 0, 16777217001, 13, 4);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER, end INTEGER, deviceId INTEGER,
  contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER, bytes INTEGER,
  copyKind INTEGER, srcKind INTEGER, dstKind INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (7400, 7450, 0, 1, 7, 12, 16777216000, 4, 2, 2, 1);
CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start INTEGER, end INTEGER, deviceId INTEGER,
  contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER, syncType INTEGER,
  eventId INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES (7300, 9000, 0, 1, 7, 13, 16777216000, 3, 4294967295);
CREATE TABLE NVTX_EVENTS (start INTEGER, end INTEGER, eventType INTEGER, rangeId INTEGER,
  text TEXT, globalTid INTEGER, textId INTEGER, domainId INTEGER);
INSERT INTO NVTX_EVENTS VALUES (0, NULL, 75, NULL, 'ampprof', 16777217001, NULL, 3),
  (900, 9500, 59, NULL, NULL, 16777217001, 7, 3),
  (9600, NULL, 59, NULL, 'died inside', 16777217001, NULL, 0),
  (950, NULL, 34, NULL, 'checkpoint', 16777217001, NULL, 0);
CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);
INSERT INTO PROCESSES VALUES (16777216000, 1000, 'python3 train.py'), (33554432000, 2000, 'bash');
CREATE TABLE ThreadNames (nameId INTEGER, priority INTEGER, globalTid INTEGER);
INSERT INTO ThreadNames VALUES (8, 10, 16777217001);
