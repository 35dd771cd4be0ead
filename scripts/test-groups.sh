# Sourced by run-tests.sh and tsan.sh: the suites that run apart from the tests that wait for processes and
# signals (a 100,000-call soak beside a test waiting for a daemon's name starves the waiter). swift test
# --filter/--skip regular expressions.
# CPU_SUITES burn the CPU: the soak, the bus fuzz, the solver churn (ChurnTests and OracleChurnTests), the scipy
# oracle, the benchmarks' smoke runs.
CPU_SUITES='SoakTests|BusFuzzTests|ChurnTests|DifferentialTests|BenchmarkSmokeTests'
# PROGRAM_SUITES start real browsers, desktop apps and Hypothesis's walks, whose own deadlines are a real
# program's (Chromium answers its first Target.createTarget within 10 s, or the bridge fails the layout): they run
# apart from the CPU suites, and one test at a time (beside the soak and the fuzz, or beside each other's
# Chromiums and apps, a browser's first tab took longer than that in one make test in two; beside 200 adapter
# processes waiting on a deadline, four of its layouts missed it).
PROGRAM_SUITES='WebBridgeTests|WebPageTests|DesktopBridgeTests|BridgeScreenshotTests|ExploreTests|DoctorTests|ReportTests'
HEAVY_SUITES="$CPU_SUITES|$PROGRAM_SUITES"
