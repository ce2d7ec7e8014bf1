-- The string table and the kernel table as views: the string table a recursive query without end.
CREATE VIEW StringIds AS WITH RECURSIVE n(id, value) AS (SELECT 0, 'k' UNION ALL SELECT id + 1, value || 'k' FROM n) SELECT id, value FROM n;
CREATE TABLE kernels (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER, shortName INTEGER);
INSERT INTO kernels VALUES (2000, 5000, 0, 1, 7, 10, 16777216000, 1, 1);
CREATE VIEW CUPTI_ACTIVITY_KIND_KERNEL AS SELECT * FROM kernels;
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, globalTid INTEGER, correlationId INTEGER, nameId INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1000, 1500, 16777217001, 10, 0);
