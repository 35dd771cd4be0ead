# traitd: the two commands a newcomer needs are `make run` and `make test`.
#   make run           install what is missing, build, run the daemon and the adapter host (private session
#                      bus if none), then rotate and split the display so that the adapters' reports show
#   make test          install what is missing, build, run every test
#   make install       install binaries, units, D-Bus files (PREFIX, DESTDIR honoured)
#   make introspection regenerate Config/dbus-1/org.traitd.Layout1.xml from the code
#   make security      rate the systemd units with systemd-analyze security --offline=true
#   make bench-solver  the constraint engine beside kiwi's C++ core and kiwisolver (BENCH_ARGS=--large ...)
#   make churn         OPS seeded random operations on the solver workloads, checked against fresh solves
#   make fuzz          build the libFuzzer targets (Fuzz/) and run each for FUZZ_SECONDS (default 60)
#   make leak-check    run traitd built with AddressSanitizer through every kind of call; fail on a leak
#   make clean         remove the build folders

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
DATADIR = $(PREFIX)/share
SYSTEMD_USER_DIR = $(PREFIX)/lib/systemd/user
SYSTEMD_SYSTEM_DIR = $(PREFIX)/lib/systemd/system
SYSUSERS_DIR = $(PREFIX)/lib/sysusers.d
SWIFT ?= swift
# Release binaries link the Swift runtime statically: with FoundationEssentials instead of Foundation, that takes
# traitd from 28 to 16 MiB idle (README, "Memory"), and the installed binaries need no Swift toolchain to run.
RELEASE = $(SWIFT) build -c release --static-swift-stdlib
# Debian packages the build and the daemon need: libdbus (headers), libyaml, the bus and its tools, busctl, gdbus,
# rsvg-convert (traitctl render --png).
APT_PACKAGES = libdbus-1-dev libyaml-dev pkg-config dbus dbus-bin dbus-daemon systemd libglib2.0-bin librsvg2-bin
# What only the tests need: the Python adapter example (python3-dbus, python3-gi), the engine's oracle
# (python3-scipy), all for Debian's /usr/bin/python3 (nothing goes through pip), and GIO's headers, gdbus-codegen
# and a C compiler for the generated C client (examples/c-client), GTK 4's introspection data, Xvfb and xwd for
# the GTK client (examples/gtk).
TEST_APT_PACKAGES = python3 python3-dbus python3-gi python3-numpy python3-scipy libglib2.0-dev gcc \
	gir1.2-gtk-4.0 xvfb x11-apps
# The solver benchmark makes a venv with kiwisolver under .build/kiwi-venv.
BENCH_APT_PACKAGES = g++ python3 python3-venv python3-pip

.PHONY: deps build release run test install introspection security bench-solver bench-transitions churn fuzz leak-check clean

FUZZ_SECONDS ?= 60

deps:
	@scripts/install-deps.sh $(APT_PACKAGES)

build: deps
	$(SWIFT) build

release: deps
	$(RELEASE) --product traitd
	$(RELEASE) --product traitctl
	$(RELEASE) --product traitd-adapters

run: build
	@scripts/run-daemon.sh "$$($(SWIFT) build --show-bin-path)" $(ARGS)

test: deps
	@scripts/install-deps.sh $(TEST_APT_PACKAGES)
	$(SWIFT) build --build-tests
	@scripts/run-tests.sh $(SWIFT)

introspection:
	$(SWIFT) build --product traitd
	"$$($(SWIFT) build --show-bin-path)/traitd" --print-introspection > Config/dbus-1/org.traitd.Layout1.xml

security:
	@mkdir -p .build/units
	@for unit in traitd.service traitd-adapters.service traitd-system.service; do \
		sed -e 's|@bindir@|$(BINDIR)|g' -e 's|@datadir@|$(DATADIR)|g' systemd/$$unit > .build/units/$$unit; \
		systemd-analyze security --offline=true .build/units/$$unit | tail -n 1; \
	done

install: release
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SYSTEMD_USER_DIR) $(DESTDIR)$(SYSTEMD_SYSTEM_DIR) \
		$(DESTDIR)$(SYSUSERS_DIR) $(DESTDIR)$(DATADIR)/dbus-1/services $(DESTDIR)$(DATADIR)/dbus-1/system.d \
		$(DESTDIR)$(DATADIR)/dbus-1/interfaces $(DESTDIR)$(DATADIR)/doc/traitd
	install -m 0755 "$$($(RELEASE) --show-bin-path)/traitd" $(DESTDIR)$(BINDIR)/traitd
	install -m 0755 "$$($(RELEASE) --show-bin-path)/traitctl" $(DESTDIR)$(BINDIR)/traitctl
	install -m 0755 "$$($(RELEASE) --show-bin-path)/traitd-adapters" $(DESTDIR)$(BINDIR)/traitd-adapters
	sed -e 's|@bindir@|$(BINDIR)|g' -e 's|@datadir@|$(DATADIR)|g' systemd/traitd-adapters.service \
		> $(DESTDIR)$(SYSTEMD_USER_DIR)/traitd-adapters.service
	sed -e 's|@bindir@|$(BINDIR)|g' -e 's|@datadir@|$(DATADIR)|g' systemd/traitd.service \
		> $(DESTDIR)$(SYSTEMD_USER_DIR)/traitd.service
	sed -e 's|@bindir@|$(BINDIR)|g' -e 's|@datadir@|$(DATADIR)|g' systemd/traitd-system.service \
		> $(DESTDIR)$(SYSTEMD_SYSTEM_DIR)/traitd.service
	install -m 0644 systemd/traitd.sysusers.conf $(DESTDIR)$(SYSUSERS_DIR)/traitd.conf
	sed -e 's|@bindir@|$(BINDIR)|g' Config/dbus-1/org.traitd.Layout1.service \
		> $(DESTDIR)$(DATADIR)/dbus-1/services/org.traitd.Layout1.service
	install -m 0644 Config/dbus-1/org.traitd.Layout1.conf $(DESTDIR)$(DATADIR)/dbus-1/system.d/org.traitd.Layout1.conf
	install -m 0644 Config/dbus-1/org.traitd.Layout1.xml $(DESTDIR)$(DATADIR)/dbus-1/interfaces/org.traitd.Layout1.xml
	install -m 0644 README.md $(DESTDIR)$(DATADIR)/doc/traitd/README.md

# SetArrangement -> TransitionCompleted with 1, 10 and 100 adapters, then a 120 calls/s MoveDivider stream
# with 50 adapters, each beside the bare libdbus peer, with RSS; then traitd's and the adapter host's memory
# across 100,000 transitions (BENCH_ARGS="--only latency|drag|memory", "--adapters 1,10", ...).
bench-transitions: deps
	$(RELEASE) --product traitd
	$(RELEASE) --product traitd-adapters
	$(RELEASE) --product bare-peer
	$(RELEASE) --product transition-benchmark
	"$$($(RELEASE) --show-bin-path)/transition-benchmark" $(BENCH_ARGS)

# The constraint engine beside kiwi's C++ core (built with g++ from the kiwisolver sdist) and kiwisolver, on
# Benchmarks/workloads (BENCH_ARGS=--large adds rows-300; --churn-ops N sets the mixed churn's length).
bench-solver: deps
	@scripts/install-deps.sh $(BENCH_APT_PACKAGES)
	@scripts/build-kiwi-peer.sh >/dev/null
	$(RELEASE) --product solver-benchmark
	"$$($(RELEASE) --show-bin-path)/solver-benchmark" $(BENCH_ARGS)

# Seeded random churn on the solver workloads, checked against fresh solves as it goes; prints speed and memory
# every 100,000 operations. `make churn OPS=1000000`; CHURN_ARGS=--workload grid-20 --seed 7 ...
OPS ?= 100000
churn:
	$(RELEASE) --product solver-churn
	"$$($(RELEASE) --show-bin-path)/solver-churn" --ops $(OPS) $(CHURN_ARGS)

# The fuzz targets: the layout parser, the YAML config and device profiles, the state file, the D-Bus value reader
# and writer. Seeds in Fuzz/corpus/TARGET; what they find goes to .build-fuzz/findings/TARGET/.
fuzz: deps
	@scripts/fuzz.sh $(FUZZ_SECONDS)

# LeakSanitizer on a short run of the daemon (scripts/leak-check.sh says what it drives).
leak-check: deps
	$(SWIFT) build --scratch-path .build-asan -Xswiftc -sanitize=address -Xswiftc -use-ld=lld --product traitd
	@scripts/leak-check.sh "$$($(SWIFT) build --scratch-path .build-asan --show-bin-path)"

clean:
	rm -rf .build .build-*
