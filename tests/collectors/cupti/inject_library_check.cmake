# libampprof_inject.so lives inside other people's processes, so:
#   - it exports InitializeInjection, InitializeInjectionNvtx2 and ampprof_collector_finish (for the PyTorch shim) and nothing else (no symbol of ours, fmt's or libstdc++'s can
#     interpose on the host's);
#   - it needs no shared library the host might not have or might have in another version: only the C
#     library's parts and libcupti.
# Run as: cmake -DLIBRARY=... -DNM=... -DREADELF=... -P inject_library_check.cmake
execute_process(COMMAND ${NM} -D --defined-only ${LIBRARY} OUTPUT_VARIABLE symbols RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "nm failed on ${LIBRARY}")
endif()
string(REGEX MATCHALL "[^\n]+" lines "${symbols}")
set(exported "")
foreach(line IN LISTS lines)
  string(REGEX REPLACE "^[0-9a-fA-F]* *[A-Za-z] " "" name "${line}")
  if(NOT name MATCHES "^(InitializeInjection|InitializeInjectionNvtx2|ampprof_collector_finish|_init|_fini)$" AND NOT name MATCHES "@")
    list(APPEND exported "${name}")
  endif()
endforeach()
foreach(required InitializeInjection InitializeInjectionNvtx2 ampprof_collector_finish)
  if(NOT symbols MATCHES "${required}")
    message(FATAL_ERROR "${LIBRARY} does not export ${required}")
  endif()
endforeach()
if(exported)
  message(FATAL_ERROR "${LIBRARY} exports more than InitializeInjection, InitializeInjectionNvtx2 and ampprof_collector_finish: ${exported}")
endif()

execute_process(COMMAND ${READELF} -d ${LIBRARY} OUTPUT_VARIABLE dynamic RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "readelf failed on ${LIBRARY}")
endif()
string(REGEX MATCHALL "Shared library: \\[[^]]+\\]" needed "${dynamic}")
foreach(entry IN LISTS needed)
  string(REGEX REPLACE "Shared library: \\[(.*)\\]" "\\1" soname "${entry}")
  if(NOT soname MATCHES "^(libcupti\\.so\\.[0-9]+|libc\\.so\\.6|libm\\.so\\.6|libpthread\\.so\\.0|libdl\\.so\\.2|librt\\.so\\.1|ld-linux-x86-64\\.so\\.2|ld-linux-aarch64\\.so\\.1)$")
    message(FATAL_ERROR "${LIBRARY} needs ${soname}, which the host process may lack or have in another version")
  endif()
endforeach()
message(STATUS "${LIBRARY}: exports only InitializeInjection, InitializeInjectionNvtx2 and ampprof_collector_finish; needs ${needed}")
