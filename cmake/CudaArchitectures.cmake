# Default CUDA architectures: the local GPU's compute capability (read with nvidia-smi, when a GPU
# is present) plus 90 for H100/H200. Runs before project(), so it only sets the cache variable.
if(DEFINED CMAKE_CUDA_ARCHITECTURES OR DEFINED ENV{CUDAARCHS})
  return()
endif()
set(_gps_archs 90)
find_program(_gps_nvidia_smi nvidia-smi)
if(_gps_nvidia_smi)
  execute_process(
    COMMAND ${_gps_nvidia_smi} --query-gpu=compute_cap --format=csv,noheader
    OUTPUT_VARIABLE _gps_caps
    RESULT_VARIABLE _gps_rc
    ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(_gps_rc EQUAL 0 AND _gps_caps)
    string(REPLACE "\n" ";" _gps_caps "${_gps_caps}")
    foreach(_cap IN LISTS _gps_caps)
      string(STRIP "${_cap}" _cap)
      string(REPLACE "." "" _cap "${_cap}")
      if(_cap MATCHES "^[0-9]+$")
        list(APPEND _gps_archs ${_cap})
      endif()
    endforeach()
  endif()
endif()
list(REMOVE_DUPLICATES _gps_archs)
list(SORT _gps_archs COMPARE NATURAL)
set(CMAKE_CUDA_ARCHITECTURES "${_gps_archs}" CACHE STRING "CUDA architectures to build for")
