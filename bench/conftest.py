# Benchmarks: `python -m pytest bench` (pytest-benchmark).  They report;
# they never assert a time.
