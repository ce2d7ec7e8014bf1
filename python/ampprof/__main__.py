"""`python -m ampprof ...` is the `ampprof` command."""

from ._console import main

main()
