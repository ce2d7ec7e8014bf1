"""One library log per process for cuBLAS and cuDNN (`ampprof run --library-logs`).

The launcher sets CUBLAS_LOGDEST_DBG and CUDNN_LOGDEST_DBG to file names containing "%i"
(collectors/liblogs/log_environment.h). cuBLASLt documents "%i" as the process id in its log file name;
cuBLAS and cuDNN document no such placeholder. So each Python process replaces "%i" with its own pid
here, at start-up, before torch loads either library (they read the variables when they first log).

The template is kept in AMPPROF_<VARIABLE>_TEMPLATE, so a child process (a torchrun rank, a spawned
DataLoader worker) expands it with its own pid instead of inheriting its parent's file name.
"""

import os

VARIABLES = ("CUBLAS_LOGDEST_DBG", "CUDNN_LOGDEST_DBG")


def expand_pid_placeholders(environ=None):
    environ = os.environ if environ is None else environ
    for variable in VARIABLES:
        template_variable = "AMPPROF_%s_TEMPLATE" % variable
        template = environ.get(template_variable) or environ.get(variable, "")
        if "%i" not in template:
            continue
        environ[template_variable] = template
        environ[variable] = template.replace("%i", str(os.getpid()))
