# Sourced by run-tests.sh and tsan.sh: the CPU-heavy suites, which run in an invocation of their own, apart from
# the tests that wait for processes and signals (a 100,000-call soak beside a test waiting for a daemon's name
# starves the waiter). A swift test --filter/--skip regular expression.
# The soak, the bus fuzz, the solver churn (ChurnTests and OracleChurnTests), the scipy oracle and the benchmarks' smoke runs.
HEAVY_SUITES='SoakTests|BusFuzzTests|ChurnTests|DifferentialTests|BenchmarkSmokeTests'
