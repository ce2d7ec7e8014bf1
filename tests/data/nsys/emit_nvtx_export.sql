-- An Nsight Systems SQLite export of a PyTorch run under torch.autograd.profiler.emit_nvtx(record_shapes=True),
-- in the 2024-2025 schema (as minimal_export.sql): op ranges in the default NVTX domain, named as PyTorch's
-- torch/csrc/profiler/util.cpp getNvtxStr writes them ("name, seq = N, op_id = M, sizes = [[...], ...]").
-- One forward aten::linear > aten::addmm on the main thread (tid 1001) launching an FP32 SGEMM, and on
-- autograd's thread (tid 1002) its backward node, which carries the forward's sequence number, with two
-- aten::mm launching SGEMMs; one kernel outside any op. Ids and times are made up; pid 1000.
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES (0, 'cudaLaunchKernel_v7000'), (1, 'ampere_sgemm_128x64_nn'), (2, 'sgemm'),
  (3, 'ampere_sgemm_64x64_nt'), (4, 'void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)'),
  (5, 'vectorized_elementwise_kernel');
CREATE TABLE TARGET_INFO_GPU (vmId INTEGER, id INTEGER, name TEXT, totalMemory INTEGER,
  smCount INTEGER, computeMajor INTEGER, computeMinor INTEGER, uuid TEXT, clockRate INTEGER);
INSERT INTO TARGET_INFO_GPU VALUES (0, 0, 'NVIDIA A100-SXM4-40GB', 42505273344, 108, 8, 0,
  'GPU-1234', 1410000000);
-- globalPid = pid << 24 (pid 1000); globalTid = globalPid + tid.
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER,
  contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER,
  demangledName INTEGER, shortName INTEGER, gridX INTEGER, gridY INTEGER, gridZ INTEGER,
  blockX INTEGER, blockY INTEGER, blockZ INTEGER, registersPerThread INTEGER,
  staticSharedMemory INTEGER, dynamicSharedMemory INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES
  (2000, 12000, 0, 1, 7, 10, 16777216000, 1, 2, 8, 16, 1, 128, 1, 1, 122, 12544, 0),
  (22000, 30000, 0, 1, 7, 20, 16777216000, 3, 2, 8, 16, 1, 128, 1, 1, 122, 12544, 0),
  (31000, 39000, 0, 1, 7, 21, 16777216000, 1, 2, 8, 16, 1, 128, 1, 1, 122, 12544, 0),
  (40000, 41000, 0, 1, 7, 30, 16777216000, 4, 5, 8, 1, 1, 128, 1, 1, 16, 0, 0);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, eventClass INTEGER,
  globalTid INTEGER, correlationId INTEGER, nameId INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES
  (1000, 1500, 0, 16777217001, 10, 0),
  (21000, 21500, 0, 16777217002, 20, 0),
  (21700, 22200, 0, 16777217002, 21, 0),
  (39500, 39800, 0, 16777217001, 30, 0);
CREATE TABLE NVTX_EVENTS (start INTEGER, end INTEGER, eventType INTEGER, rangeId INTEGER,
  text TEXT, globalTid INTEGER, textId INTEGER, domainId INTEGER);
INSERT INTO NVTX_EVENTS VALUES
  (800, 1900, 59, NULL, 'aten::linear, seq = 12, op_id = 39, sizes = [[64, 1024], [1000, 1024], [1000]]', 16777217001, NULL, 0),
  (900, 1800, 59, NULL, 'aten::addmm, seq = 12, op_id = 41, sizes = [[1000], [64, 1024], [1024, 1000], [], []]', 16777217001, NULL, 0),
  (20000, 23000, 59, NULL, 'AddmmBackward0, seq = 12, op_id = 50', 16777217002, NULL, 0),
  (20500, 21600, 59, NULL, 'aten::mm, op_id = 51, sizes = [[64, 1000], [1000, 1024]]', 16777217002, NULL, 0),
  (21600, 22300, 59, NULL, 'aten::mm, op_id = 52, sizes = [[1000, 64], [64, 1024]]', 16777217002, NULL, 0);
CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);
INSERT INTO PROCESSES VALUES (16777216000, 1000, 'python3 train.py');
