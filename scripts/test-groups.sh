# Sourced by run-tests.sh and tsan.sh: the CPU-heavy suites, which run in an invocation of their own, apart from
# the tests that wait for processes and signals (a 100,000-call soak beside a test waiting for a daemon's name
# starves the waiter). A swift test --filter/--skip regular expression.
# The soak, the bus fuzz, the solver churn (ChurnTests and OracleChurnTests), the scipy oracle, the benchmarks' smoke
# runs, and the suites that run real browsers, desktop apps and Hypothesis's walks (Chromium's start-up beside 200
# adapter processes waiting on a deadline once made four of them miss it).
HEAVY_SUITES='SoakTests|BusFuzzTests|ChurnTests|DifferentialTests|BenchmarkSmokeTests|WebBridgeTests|DesktopBridgeTests|BridgeScreenshotTests|ExploreTests|DoctorTests'
