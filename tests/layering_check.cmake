# Checks that #includes follow the pipeline's one direction (ARCHITECTURE.md):
#   src/base <- collectors/records <- collectors/<importers> <- src/model <- analyzers (facts <- findings
#   <- report <- ranks) <- reports
#   <- src/pipeline <- src/cli
# and that CUPTI headers appear only in collectors/cupti and its tests (tests/collectors/cupti), and in
# tests/gpu's stand-alone probes (a bare CUPTI client built on the GPU machine, linked to nothing of ours).
# Run by ctest as `layering`:
#   cmake -DSOURCE_DIR=<repo> -P layering_check.cmake

# folder -> the repository folders its files may include from (besides itself).
set(allowed_src/base "")
set(allowed_collectors/records "src/base")
set(allowed_collectors/synthetic "src/base;collectors/records")
set(allowed_collectors/kineto "src/base;collectors/records")
set(allowed_collectors/nsys "src/base;collectors/records")
set(allowed_collectors/cupti "src/base;collectors/records")
set(allowed_collectors/liblogs "src/base")
set(allowed_src/model "src/base;collectors/records")
# analyzers read the plain structs of collectors/liblogs (library calls) beside the model.
set(allowed_analyzers/facts "src/base;collectors/records;collectors/liblogs;src/model")
# Inside analyzers, one direction too: facts <- findings <- report.
set(allowed_analyzers/findings "src/base;collectors/records;collectors/liblogs;src/model;analyzers/facts")
set(allowed_analyzers/report "src/base;collectors/records;collectors/liblogs;src/model;analyzers/facts;analyzers/findings")
set(allowed_analyzers/ranks "src/base;collectors/records;collectors/liblogs;src/model;analyzers/facts;analyzers/findings;analyzers/report")
# reports/export redraws the trace itself, so reports may read the model too.
set(allowed_reports "src/base;collectors/records;src/model;analyzers")
set(allowed_src/pipeline "src/base;collectors;src/model;analyzers;reports")
set(allowed_src/cli "src/base;collectors;src/model;analyzers;reports;src/pipeline")

set(violations "")
foreach(folder src/base collectors/records collectors/synthetic collectors/kineto collectors/nsys collectors/cupti
               collectors/liblogs src/model analyzers/facts analyzers/findings analyzers/report analyzers/ranks
               reports src/pipeline src/cli)
  file(GLOB_RECURSE sources "${SOURCE_DIR}/${folder}/*.h" "${SOURCE_DIR}/${folder}/*.cc")
  foreach(source ${sources})
    file(STRINGS "${source}" includes REGEX "^#include \"")
    foreach(line ${includes})
      string(REGEX REPLACE "^#include \"([^\"]+)\".*" "\\1" included "${line}")
      set(ok FALSE)
      foreach(prefix ${folder} ${allowed_${folder}})
        string(FIND "${included}" "${prefix}/" at)
        if(at EQUAL 0)
          set(ok TRUE)
        endif()
      endforeach()
      if(NOT ok)
        file(RELATIVE_PATH relative "${SOURCE_DIR}" "${source}")
        string(APPEND violations "  ${relative} includes ${included} (${folder} may include: ${folder} ${allowed_${folder}})\n")
      endif()
    endforeach()
  endforeach()
endforeach()

file(GLOB_RECURSE all_sources "${SOURCE_DIR}/src/*" "${SOURCE_DIR}/collectors/*" "${SOURCE_DIR}/analyzers/*"
     "${SOURCE_DIR}/reports/*" "${SOURCE_DIR}/tests/*" "${SOURCE_DIR}/bench/*")
foreach(source ${all_sources})
  # The collector and its own tests (tests/collectors/cupti fabricates CUPTI records) may include CUPTI.
  file(RELATIVE_PATH relative_source "${SOURCE_DIR}" "${source}")
  if(relative_source MATCHES "^((tests/)?collectors/cupti|tests/gpu)/" OR NOT source MATCHES "\\.(h|cc|cu|cpp)$")
    continue()
  endif()
  file(STRINGS "${source}" cupti REGEX "#include *[<\"]cupti")
  if(cupti)
    file(RELATIVE_PATH relative "${SOURCE_DIR}" "${source}")
    string(APPEND violations "  ${relative} includes a CUPTI header outside collectors/cupti\n")
  endif()
endforeach()

if(violations)
  message(FATAL_ERROR "layering violations:\n${violations}")
endif()
message("layering: every #include follows the pipeline's direction")
