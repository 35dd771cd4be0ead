// The seeded generator lives beside the solver workloads (the churn tool uses it too); tests get it from here.
@_exported import struct SolverWorkload.SeededRandom
@_exported import struct SolverWorkload.ProcessMemory
