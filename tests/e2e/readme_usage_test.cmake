# The README's usage matches the help texts: every long option that `ampprof <command> --help` lists
# appears in the README's usage section of that command (its "### `ampprof <command> ...`" heading and
# the text under it, up to the next "##"/"###" heading), and every command the top-level help lists
# has such a section. Run by ctest as `e2e.readme_usage`:
#   cmake -DAMPPROF=... -DREADME=.../README.md -P readme_usage_test.cmake

file(READ "${README}" readme)
string(REPLACE ";" "," readme "${readme}")  # CMake lists split on ';'
string(REPLACE "\n" ";" readme_lines "${readme}")

# The usage section of each command: from its heading to the next heading of level 2 or 3.
set(current "")
foreach(line IN LISTS readme_lines)
  if(line MATCHES "^### `ampprof ([a-z]+)")
    set(current "${CMAKE_MATCH_1}")
    set(section_${current} "${line}\n")
  elseif(line MATCHES "^##? " OR line MATCHES "^### ")
    set(current "")
  elseif(NOT current STREQUAL "")
    string(APPEND section_${current} "${line}\n")
  endif()
endforeach()

# The long options a help text lists: the names at the start of its option lines ("  -o,--output FILE
# ..."), not options its descriptions mention.
function(listed_options help out_var)
  string(REPLACE ";" "," help "${help}")
  string(REPLACE "\n" ";" help_lines "${help}")
  set(options "")
  foreach(line IN LISTS help_lines)
    if(line MATCHES "^ ? ? ? ?-")
      # Only the names before the description: stop at the first run of two spaces after the names.
      string(REGEX REPLACE "^( *[^ ]+( [A-Z_.|]+)?)  .*" "\\1" head "${line}")
      string(REGEX MATCHALL "--[a-z][a-z0-9-]*" names "${head}")
      list(APPEND options ${names})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES options)
  set(${out_var} "${options}" PARENT_SCOPE)
endfunction()

cmake_policy(SET CMP0057 NEW)  # if(... IN_LIST ...)
set(failures 0)
execute_process(COMMAND "${AMPPROF}" --help RESULT_VARIABLE status OUTPUT_VARIABLE top ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "ampprof --help failed (${status}): ${err}")
endif()
# The commands: the top-level help's "Commands:" list, one "  NAME  description" line each.
string(REGEX REPLACE ".*\nCommands:\n" "" command_list "${top}")
string(REPLACE ";" "," command_list "${command_list}")
string(REPLACE "\n" ";" command_lines "${command_list}")
set(commands "")
foreach(line IN LISTS command_lines)
  if(line MATCHES "^  ([a-z]+)( |$)")
    list(APPEND commands "${CMAKE_MATCH_1}")
  elseif(NOT line STREQUAL "" AND NOT line MATCHES "^   ")
    break()  # the end of the list
  endif()
endforeach()
list(LENGTH commands command_count)
if(command_count LESS 5)
  message(FATAL_ERROR "found only '${commands}' as commands in `ampprof --help`:\n${top}")
endif()

# Global options (the top-level help's) are the README's "Usage" preamble's, not each command's.
listed_options("${top}" global_options)

foreach(command IN LISTS commands)
  execute_process(COMMAND "${AMPPROF}" ${command} --help RESULT_VARIABLE status OUTPUT_VARIABLE help
                  ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message("FAIL: ampprof ${command} --help exits ${status}: ${err}")
    math(EXPR failures "${failures} + 1")
    continue()
  endif()
  if(NOT DEFINED section_${command})
    message("FAIL: README.md has no usage section (### `ampprof ${command} ...`) for `ampprof ${command}`")
    math(EXPR failures "${failures} + 1")
    continue()
  endif()
  listed_options("${help}" options)
  set(missing "")
  foreach(option IN LISTS options)
    if(option STREQUAL "--help" OR option IN_LIST global_options)
      continue()
    endif()
    string(FIND "${section_${command}}" "${option}" at)
    if(at EQUAL -1)
      list(APPEND missing "${option}")
    endif()
  endforeach()
  if(missing)
    string(REPLACE ";" " " missing "${missing}")
    message("FAIL: README.md's usage of `ampprof ${command}` does not mention ${missing}")
    math(EXPR failures "${failures} + 1")
  else()
    message("ok:   ampprof ${command}: ${options}")
  endif()
endforeach()

if(failures GREATER 0)
  message(FATAL_ERROR "${failures} README usage check(s) failed")
endif()
