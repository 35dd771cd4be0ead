// swift-tools-version:6.0
// traitd: a simulated iPad display and its windows, published on D-Bus.
// The modules, what each holds and what it may depend on: docs/development.md, "Layout of the code" (written
// there once; DocsTests holds it to the targets below).
import PackageDescription

/// How the installed programs are linked in release builds on Linux (docs/measurements.md, "Memory"): with lld, so that
/// - the 44,000 relative relocations of a position-independent Swift binary go in a packed table (DT_RELR, glibc
///   2.36 and later) of 8 KiB instead of 1 MiB of `.rela.dyn` the loader reads and leaves resident, and
/// - the executable exports no symbols of its own to the shared libraries (the Swift driver links executables with
///   `--export-dynamic`: 6,900 symbols whose names and hash table the loader walks to bind libdbus and libc).
/// Together 1.8 MiB less resident for traitd. Debug and sanitizer builds keep the toolchain's defaults.
let releaseLinkerSettings: [LinkerSetting] = [
    .unsafeFlags(
        ["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic"],
        .when(platforms: [.linux], configuration: .release)),
]

let package = Package(
    name: "traitd",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "traitd", targets: ["traitd"]),
        .executable(name: "traitctl", targets: ["traitctl"]),
        .executable(name: "traitd-adapters", targets: ["traitd-adapters"]),
        .library(name: "TraitClient", targets: ["TraitClient"]),
        .library(name: "TraitModel", targets: ["TraitModel"]),
        .library(name: "Vocabulary", targets: ["Vocabulary"]),
        .library(name: "Cassowary", targets: ["Cassowary"]),
        .library(name: "Layout", targets: ["Layout"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        // make docs: the DocC catalogs of TraitClient, Cassowary and Layout.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CDBus",
            pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]
        ),
        // libyaml (Debian's libyaml-dev): the config and device-profile reader, without Foundation.
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        // zlib (Debian's zlib1g-dev): the desktop bridge's screenshots as PNG.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // D-Bus's data and its wire format, written and read without libdbus (what traitd writes to its socket
        // itself, and the state file's restoration states).
        .target(name: "BusValues"),
        // A pthread mutex, and a value behind one: what threads share.
        .target(name: "Locks"),
        .target(name: "DBus", dependencies: ["CDBus", "BusValues", "Locks"]),
        .target(name: "Vocabulary"),
        .target(name: "TraitModel", dependencies: ["Vocabulary"]),
        // The D-Bus contract, declared once for the daemon and its clients: the bus and the vocabulary, not the model.
        .target(name: "TraitProtocol", dependencies: ["DBus", "Vocabulary", "Limits"]),
        // One solver is used from one thread at a time (see `Solver`), so the hot loops need no run-time check of
        // exclusive access to its properties (5 % of a small build went to it).
        .target(name: "Cassowary", dependencies: ["Vocabulary"],
                swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]),
        .target(name: "Layout", dependencies: ["Cassowary", "Vocabulary"]),
        .target(name: "Adapters", dependencies: ["Layout", "Vocabulary"]),
        .target(
            name: "DefaultConfig",
            path: "Config",
            // book-pages and split-columns are files for `traitd-adapters --layouts Config/layouts`, not embedded:
            // their Swift twins already run by default.
            exclude: [
                "dbus-1/org.traitd.Layout1.service", "dbus-1/system-services", "dbus-1/org.traitd.Layout1.conf", "README.md",
                "layouts/book-pages.layout", "layouts/split-columns.layout",
            ],
            sources: ["EmbeddedConfig.swift"],
            resources: [
                .embedInCode("traitd.yaml"),
                .embedInCode("dbus-1/org.traitd.Layout1.xml"),
                .embedInCode("devices/ipad-9.7.yaml"),
                .embedInCode("devices/ipad-10.2.yaml"),
                .embedInCode("devices/ipad-pro-10.5.yaml"),
                .embedInCode("devices/ipad-pro-11.yaml"),
                .embedInCode("devices/ipad-air-10.9.yaml"),
                .embedInCode("devices/ipad-pro-12.9.yaml"),
                .embedInCode("devices/ipad-mini-6.yaml"),
                .embedInCode("devices/iphone-se-1.yaml"),
                .embedInCode("devices/iphone-8.yaml"),
                .embedInCode("devices/iphone-8-plus.yaml"),
                .embedInCode("devices/iphone-x.yaml"),
                .embedInCode("devices/iphone-xr.yaml"),
                .embedInCode("devices/iphone-xs-max.yaml"),
                .embedInCode("devices/iphone-12.yaml"),
                .embedInCode("devices/iphone-13-mini.yaml"),
                .embedInCode("devices/iphone-12-pro-max.yaml"),
                .embedInCode("devices/iphone-14.yaml"),
                .embedInCode("devices/iphone-14-plus.yaml"),
                .embedInCode("devices/iphone-15.yaml"),
                .embedInCode("devices/iphone-15-pro-max.yaml"),
                .embedInCode("devices/iphone-16-pro.yaml"),
                .embedInCode("devices/iphone-16-pro-max.yaml"),
                .embedInCode("devices/iphone-17-pro.yaml"),
                .embedInCode("devices/iphone-17-pro-max.yaml"),
                .embedInCode("devices/iphone-air.yaml"),
                .embedInCode("devices/ipad-pro-11-m4.yaml"),
                .embedInCode("devices/ipad-pro-13-m4.yaml"),
                .embedInCode("devices/ipad-11.yaml"),
                .embedInCode("devices/ipad-air-13.yaml"),
                .embedInCode("devices/ipad-mini-7.yaml"),
                .embedInCode("layouts/support-panel.layout"),
                .embedInCode("layouts/xy-slider.layout"),
            ]
        ),
        // What clients may ask of the daemon (the config's limits:) and the checks of a value against them.
        .target(name: "Limits", dependencies: ["BusValues"]),
        .target(
            name: "TraitConfig",
            dependencies: ["TraitModel", "Vocabulary", "DefaultConfig", "CYAML", "Limits"]
        ),
        // The state file: what traitd keeps between runs, written atomically on a queue of its own.
        .target(name: "StateStore", dependencies: ["BusValues", "Locks", "Limits", "TraitModel", "Vocabulary"]),
        // Between the model and the bus, with neither a bus nor a clock: commands, reports and deadlines in,
        // typed events out (the service encodes and sends them).
        .target(
            name: "TransitionEngine",
            dependencies: ["TraitModel", "Vocabulary", .product(name: "Logging", package: "swift-log")]),
        // The layout checks: a report against the geometry its window was given (pure, no bus).
        .target(name: "LayoutJudge", dependencies: ["Vocabulary"]),
        // Everything the daemon knows, with no bus: the engine, the adapters' registrations and reports, the
        // restoration states, snapshots and notes; one entry point (inputs in, events out).
        .target(
            name: "DisplayCore",
            dependencies: [
                "BusValues", "Limits", "LayoutJudge", "TraitModel", "TransitionEngine", "Vocabulary",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .target(
            name: "TraitService",
            dependencies: [
                "DBus", "DisplayCore", "Vocabulary", "TraitModel", "TransitionEngine", "TraitProtocol", "StateStore", "Limits",
                "LayoutJudge",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(name: "TraitClient", dependencies: ["DBus", "Vocabulary", "TraitProtocol"]),
        .executableTarget(
            name: "traitd",
            dependencies: [
                "TraitService", "TraitConfig", "TraitProtocol", "DBus", "StateStore", "Limits",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            linkerSettings: releaseLinkerSettings
        ),
        // The bridges (a folder per backend: Web, Desktop), the adapter host that runs them and every adapter
        // (Host), and what they share (Common): a library, so that tests reach them without the executable.
        .target(
            name: "Bridges",
            dependencies: [
                "Adapters", "TraitClient", "TraitProtocol", "Vocabulary", "DBus", "Spawn", "Pixels",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "traitd-adapters",
            dependencies: [
                "Bridges", "Adapters", "TraitClient", "TraitConfig", "TraitModel", "Vocabulary", "DefaultConfig", "DBus", "Layout",
                "Spawn",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            linkerSettings: releaseLinkerSettings
        ),
        // Child processes with a clean signal mask: traitctl run and the tests' ChildProcess.
        // glibc's posix_spawn_file_actions_addclosefrom_np, which Swift's Glibc module does not declare.
        .systemLibrary(name: "CSpawn"),
        .target(name: "Spawn", dependencies: ["CSpawn"]),
        // A scenario's run against a daemon, recorded as trace lines, and the diff of two traces: traitctl's
        // scenarios, matrices and explore use them; tests reach them without the executable.
        .target(name: "ScenarioTraces", dependencies: ["TraitClient", "TraitConfig", "TraitModel", "Vocabulary", "DBus", "Pixels"]),
        // The pictures traitctl draws: a display as render draws it (ScreenPicture), a matrix's contact sheet
        // (RunSheet), on a small SVG document (Picture) whose labels never overprint.
        .target(name: "Pictures", dependencies: ["TraitClient", "TraitModel", "Vocabulary"]),
        // A run's report people look at (--report DIR): one folder with its viewer, opened from file://; merged
        // and accepted by traitctl.
        .target(
            name: "RunReport", dependencies: ["ScenarioTraces", "Pictures", "TraitClient", "TraitConfig", "Vocabulary"],
            resources: [.embedInCode("viewer.html")]),
        // Pixels: screenshots read and written as PNG, compared as pixelmatch compares them, measured.
        .target(name: "Pixels", dependencies: ["CZlib"]),
        .executableTarget(
            name: "traitctl",
            dependencies: [
                "TraitClient", "Layout", "LayoutJudge", "TraitConfig", "TraitModel", "Vocabulary", "DBus", "Spawn", "ScenarioTraces",
                "Pictures", "RunReport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: releaseLinkerSettings
        ),
        .testTarget(
            name: "TraitModelTests", dependencies: ["TraitModel", "Vocabulary", "TraitConfig", "DefaultConfig", "TestSupport"],
            exclude: ["Fixtures"]),
        .target(name: "TestSupport", dependencies: ["DBus", "SolverWorkload", "Spawn", "CSpawn", "TraitModel", "Vocabulary"], path: "Tests/TestSupport"),
        // Solver workloads (Benchmarks/workloads), traces and the seeded churn checker: the benchmark, `make churn`
        // and the engine's tests share them.
        .target(name: "SolverWorkload", dependencies: ["Cassowary"], path: "Benchmarks/SolverWorkload"),
        .executableTarget(name: "solver-benchmark", dependencies: ["SolverWorkload"], path: "Benchmarks/SolverBenchmark"),
        .executableTarget(
            name: "solver-churn",
            dependencies: ["SolverWorkload", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Benchmarks/SolverChurn"),
        .executableTarget(name: "bare-peer", dependencies: ["CDBus"], path: "Benchmarks/BarePeer"),
        .executableTarget(name: "pixel-benchmark", dependencies: ["Pixels"], path: "Benchmarks/PixelBenchmark"),
        // Fuzz targets (make fuzz): libFuzzer when built with -DFUZZING -sanitize=fuzzer, a replayer otherwise.
        .target(name: "CFuzzDriver", path: "Fuzz/CFuzzDriver"),
        .target(name: "FuzzSupport", dependencies: ["CFuzzDriver"], path: "Fuzz/FuzzSupport"),
        .executableTarget(name: "fuzz-layout", dependencies: ["FuzzSupport", "Layout", "Vocabulary"], path: "Fuzz/fuzz-layout"),
        .executableTarget(name: "fuzz-config", dependencies: ["FuzzSupport", "TraitConfig"], path: "Fuzz/fuzz-config"),
        .executableTarget(
            name: "fuzz-state-file", dependencies: ["FuzzSupport", "StateStore", "TraitConfig", "TraitModel", "BusValues"],
            path: "Fuzz/fuzz-state-file"),
        .executableTarget(name: "fuzz-dbus-value", dependencies: ["FuzzSupport", "DBus"], path: "Fuzz/fuzz-dbus-value"),
        // One adapter connection per process, for tests that kill adapters with SIGKILL.
        .executableTarget(name: "test-adapter", dependencies: ["CDBus"], path: "Tests/Helpers/TestAdapter"),
        .executableTarget(
            name: "transition-benchmark", dependencies: ["TraitClient", "DBus", "TestSupport"],
            path: "Benchmarks/TransitionBenchmark"),
        .testTarget(
            name: "CassowaryTests", dependencies: ["Cassowary", "TestSupport", "SolverWorkload"],
            exclude: ["Oracle", "Reproducers"]),
        .testTarget(name: "LayoutTests", dependencies: ["Layout", "Vocabulary"]),
        .testTarget(name: "LayoutJudgeTests", dependencies: ["LayoutJudge", "Vocabulary"]),
        .testTarget(name: "AdaptersTests", dependencies: ["Adapters", "Layout", "TraitConfig", "TraitModel", "Vocabulary"]),
        .testTarget(name: "BridgesTests", dependencies: ["Bridges", "Adapters", "Vocabulary", "TraitProtocol", "Pixels", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "DBusTests", dependencies: ["DBus", "TestSupport"]),
        .testTarget(
            name: "TransitionEngineTests",
            dependencies: ["TransitionEngine", "TraitModel", "TraitConfig", "Vocabulary", "TestSupport",
                           .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "ToolLibrariesTests", dependencies: ["Pictures", "ScenarioTraces", "TraitClient", "Vocabulary"]),
        .testTarget(name: "RunReportTests", dependencies: ["RunReport", "ScenarioTraces", "TraitClient", "Vocabulary"]),
        .testTarget(
            name: "DisplayCoreTests",
            dependencies: [
                "DisplayCore", "BusValues", "LayoutJudge", "Limits", "TraitConfig", "TraitModel", "TransitionEngine", "Vocabulary",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "TraitServiceTests",
            dependencies: [
                "TraitService", "DisplayCore", "StateStore", "Limits", "TraitConfig", "TraitModel", "Vocabulary", "TraitProtocol", "DBus",
                "TestSupport", "LayoutJudge",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["TraitClient", "DBus", "TestSupport", "TraitConfig", "TraitModel", "traitd", "traitctl",
                           "traitd-adapters", "test-adapter", "Bridges", "RunReport", "Pixels"],
            // State files of every released format, loaded by TraitSettingsTests (read at run time, not resources).
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
