-- String ids that StringIds lacks, one beyond 10^8, negative ones, a table without a primary key.
CREATE TABLE StringIds (id INTEGER, value TEXT);
INSERT INTO StringIds VALUES (0, 'cudaLaunchKernel_v7000'), (123456789012, 'far'), (-5, 'negative'), (1, 'one'), (1, 'one again');
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER, shortName INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (2000, 5000, 0, 1, 7, 10, 16777216000, 123456789012, 1), (6000, 7000, 0, 1, 7, 11, 16777216000, 99, 98), (8000, 9000, 0, 1, 7, 12, 16777216000, -5, NULL);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, globalTid INTEGER, correlationId INTEGER, nameId INTEGER, returnValue INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1000, 1500, 16777217001, 10, 0, 0), (5500, 5800, 16777217001, 11, 77, 0);
CREATE TABLE ThreadNames (nameId INTEGER, priority INTEGER, globalTid INTEGER);
INSERT INTO ThreadNames VALUES (4242, 10, 16777217001);
