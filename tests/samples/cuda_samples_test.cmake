# The CUDA samples as a user without a GPU meets them (no GPU needed, so it runs in CI):
#   - with no visible GPU (CUDA_VISIBLE_DEVICES=-1 hides any the machine has), each prints one line
#     "<sample>: no usable CUDA GPU: ..." on stderr and exits with status 1: no crash, no signal;
#   - a bad flag gives one line naming it and status 2; --help lists --precision and exits 0.
#   cmake -DSAMPLES_DIR=<build>/samples/cuda -DSAMPLES="tiny_mlp;..." -P cuda_samples_test.cmake
set(failures "")

function(expect_one_line sample what output)
  string(STRIP "${output}" stripped)
  string(FIND "${stripped}" "\n" newline)
  if(NOT newline EQUAL -1 OR stripped STREQUAL "")
    string(APPEND failures "  ${sample} ${what}: wanted one line on stderr, got:\n${output}\n")
    set(failures "${failures}" PARENT_SCOPE)
  endif()
endfunction()

foreach(sample ${SAMPLES})
  set(program "${SAMPLES_DIR}/${sample}")
  set(ENV{CUDA_VISIBLE_DEVICES} "-1")
  execute_process(COMMAND "${program}" --steps 2 RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status STREQUAL "1")
    string(APPEND failures "  ${sample} without a GPU: wanted exit status 1, got '${status}'\n${out}${err}\n")
  elseif(NOT err MATCHES "^${sample}: no usable CUDA GPU: ")
    string(APPEND failures "  ${sample} without a GPU: wanted '${sample}: no usable CUDA GPU: ...', got:\n${err}\n")
  else()
    expect_one_line(${sample} "without a GPU" "${err}")
  endif()
  unset(ENV{CUDA_VISIBLE_DEVICES})

  execute_process(COMMAND "${program}" --precision fp64 RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status STREQUAL "2" OR NOT err MATCHES "^${sample}: --precision must be one of fp32, fp16, bf16, got 'fp64'")
    string(APPEND failures "  ${sample} --precision fp64: wanted status 2 and a line naming the flag, got '${status}':\n${err}\n")
  else()
    expect_one_line(${sample} "--precision fp64" "${err}")
  endif()

  execute_process(COMMAND "${program}" --steps RESULT_VARIABLE status ERROR_VARIABLE err OUTPUT_QUIET)
  if(NOT status STREQUAL "2" OR NOT err MATCHES "--steps needs a value")
    string(APPEND failures "  ${sample} --steps (no value): wanted status 2, got '${status}':\n${err}\n")
  endif()

  execute_process(COMMAND "${program}" --help RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status STREQUAL "0" OR NOT out MATCHES "--precision fp32\\|fp16\\|bf16")
    string(APPEND failures "  ${sample} --help: wanted status 0 and the flags, got '${status}':\n${out}${err}\n")
  endif()
endforeach()

if(failures)
  message(FATAL_ERROR "CUDA samples:\n${failures}")
endif()
list(LENGTH SAMPLES count)
message("CUDA samples: all ${count} fail cleanly without a GPU and reject bad flags in one line")
