# traitd: the two commands a newcomer needs are `make run` and `make test`.
#   make run           install what is missing, build, run the daemon and the adapter host (private session
#                      bus if none), then rotate and split the display so that the adapters' reports show
#   make test          install what is missing, build, run every test
#   make tsan          the D-Bus and integration tests under ThreadSanitizer (.build-tsan); fails on any report
#   make docs          the DocC API documentation of TraitClient, Cassowary and Layout (into .build/docs)
#   make install       install binaries, man pages, completions, units, D-Bus files (PREFIX, DESTDIR honoured)
#   make deb           a Debian package of all that (.build/packages), lintian clean; needs no Swift to install
#   make wheel         the Python package and its pytest plugin with the binaries inside (.build/packages)
#   make package-check both, installed into places of their own, the plugin's tests run against each
#   make introspection regenerate Config/dbus-1/org.traitd.Layout1.xml and the Python client's contract from the code
#   make pictures      regenerate the documents' pictures (docs/*.svg, docs/gtk-*.png) with traitctl and the GTK client
#   make security      rate the systemd units with systemd-analyze security --offline=true
#   make bench-solver  the constraint engine beside kiwi's C++ core and kiwisolver (BENCH_ARGS=--large ...)
#   make solver-counts our build's instructions and cache misses by constraint order, under callgrind
#                      (COUNTS_ARGS="[--one-by-one] WORKLOAD ORDER...", default grid-50 as-written shuffled-2)
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
DOCDIR = $(DATADIR)/doc/traitd
MANDIR = $(DATADIR)/man
BASH_COMPLETION_DIR = $(DATADIR)/bash-completion/completions
FISH_COMPLETION_DIR = $(DATADIR)/fish/vendor_completions.d
# The system bus reads its policies from /usr/share/dbus-1/system.d and /etc/dbus-1/system.d only, and zsh
# looks in vendor-completions under /usr but site-functions under /usr/local: a distribution's package
# (PREFIX=/usr) uses the first of each, any other prefix the second.
ifeq ($(PREFIX),/usr)
DBUS_SYSTEM_POLICY_DIR = $(DATADIR)/dbus-1/system.d
ZSH_COMPLETION_DIR = $(DATADIR)/zsh/vendor-completions
else
DBUS_SYSTEM_POLICY_DIR = /etc/dbus-1/system.d
ZSH_COMPLETION_DIR = $(DATADIR)/zsh/site-functions
endif
SUBSTITUTE = sed -e 's|@bindir@|$(BINDIR)|g' -e 's|@datadir@|$(DATADIR)|g'
SWIFT ?= swift
# Release binaries link the Swift runtime statically: with FoundationEssentials instead of Foundation, that takes
# traitd from 28 to 16 MiB idle (docs/measurements.md, "Memory"), and the installed binaries need no Swift toolchain to run.
RELEASE = $(SWIFT) build -c release --static-swift-stdlib
# The wheel's binaries link libdbus, libyaml and zlib statically too (scripts/static-pkgconfig.sh says how): a
# pip user's machine then needs only glibc, libstdc++, libgcc and libsystemd, which every Debian installation has.
# The Debian package links them as shared libraries, as Debian's policy has it (lintian: embedded-library).
# Only the link differs: switching between the two relinks the binaries, it compiles nothing.
STATIC_PKGCONFIG = $(CURDIR)/.build/static-pkgconfig
STATIC_RELEASE = scripts/static-pkgconfig.sh $(STATIC_PKGCONFIG) && PKG_CONFIG_PATH=$(STATIC_PKGCONFIG) $(RELEASE)
# Debian packages the build and the daemon need: libdbus (headers), libyaml, the bus and its tools, busctl, gdbus,
# rsvg-convert (traitctl render --png).
APT_PACKAGES = libdbus-1-dev libyaml-dev zlib1g-dev pkg-config dbus dbus-bin dbus-daemon systemd libglib2.0-bin librsvg2-bin
# What only the tests need: the Python adapter example (python3-dbus, python3-gi), the engine's oracle
# (python3-scipy), all for Debian's /usr/bin/python3 (nothing goes through pip), and GIO's headers, gdbus-codegen
# and a C compiler for the generated C client (examples/c-client), GTK 4's introspection data, Xvfb and xwd for
# the GTK client (examples/gtk), libadwaita's for the portal's test app (examples/adwaita); dbus-fast, pytest, mypy
# and setuptools for the Python package and its pytest plugin (clients/python), Hypothesis for its explorer
# (traitctl explore), pytest-xdist for the plugin's parallel runs; Chromium for the web bridge (traitd-adapters --web); GNOME's calculator (GTK 4),
# Python's documentation (python3.11-doc: a real page for the web bridge's corpus test); KDE's KCalc (Qt 5), qt6ct (a Qt 6 app, and Qt 6's platform theme), qt5ct (Qt 5's: how Qt apps hear dark mode and the text size), GTK's widget factory (a GTK 3 app) and the GTK 3 Adwaita-dark theme (gnome-themes-extra: GTK 3 has none built in), the accessibility bus and xsettingsd (the display's settings as XSETTINGS) for the desktop bridge's tests
# (traitd-adapters --app); valgrind for the smoke run of
# scripts/solver-build-counts.sh.
TEST_APT_PACKAGES = python3 python3-dbus python3-gi python3-numpy python3-scipy libglib2.0-dev gcc \
	gir1.2-gtk-4.0 gir1.2-adw-1 xvfb x11-apps python3-dbus-fast python3-pytest mypy python3-setuptools python3-venv xdotool valgrind \
	python3-hypothesis python3-pytest-xdist chromium gnome-calculator kcalc qt6ct qt5ct gtk-3-examples gnome-themes-extra at-spi2-core xsettingsd python3.11-doc
# What make deb and make wheel need beyond the build: dpkg-shlibdeps (dpkg-dev), lintian, pip and wheel, and
# libsystemd's link file for the wheel's static libdbus (which calls libsystemd).
PACKAGE_APT_PACKAGES = dpkg-dev lintian python3-pip python3-wheel python3-setuptools python3-venv libsystemd-dev
# The solver benchmark makes a venv with kiwisolver under .build/kiwi-venv.
BENCH_APT_PACKAGES = g++ python3 python3-venv python3-pip

.PHONY: deps build release run test tsan docs install install-files deb wheel package-check pictures introspection security bench-pixels bench-solver solver-counts bench-transitions bench-load bench-bridges churn fuzz leak-check clean

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
	$(SWIFT) build --product generate-manual
	@scripts/run-tests.sh $(SWIFT)

docs: deps
	@scripts/install-deps.sh python3
	@scripts/docs.sh $(SWIFT)

tsan: deps
	@scripts/install-deps.sh $(TEST_APT_PACKAGES)
	@scripts/tsan.sh $(SWIFT)

pictures: build
	@scripts/install-deps.sh $(TEST_APT_PACKAGES)
	@scripts/pictures.sh "$$($(SWIFT) build --show-bin-path)"

introspection:
	$(SWIFT) build --product traitd
	"$$($(SWIFT) build --show-bin-path)/traitd" --print-introspection > Config/dbus-1/org.traitd.Layout1.xml
	"$$($(SWIFT) build --show-bin-path)/traitd" --print-python-contract > clients/python/traitd/_contract.py

security:
	@mkdir -p .build/units
	@for unit in traitd.service traitd-adapters.service traitd-system.service; do \
		$(SUBSTITUTE) systemd/$$unit > .build/units/$$unit; \
		systemd-analyze security --offline=true .build/units/$$unit | tail -n 1; \
	done

# `make install` builds the release binaries, then installs them with everything around them (install-files).
install: release
	$(RELEASE) --product generate-manual
	@$(MAKE) --no-print-directory install-files BUILT="$$($(RELEASE) --show-bin-path)"

# Everything `make install` puts in place, from the binaries in BUILT (the tests install debug binaries into a
# DESTDIR and check every path: PackagingTests). Man pages come from the argument parsers (swift-argument-
# parser's generate-manual, the engine of its manual plugin), completions from the binaries themselves. The Python
# package goes to share/traitd/python, where traitctl explore finds it beside bin/.
GENERATED ?= .build/install-generated
install-files:
	@test -x "$(BUILT)/traitd" -a -x "$(BUILT)/generate-manual" || \
		{ echo "install-files: BUILT=$(BUILT) lacks traitd or generate-manual (swift build --product generate-manual builds it; make install and make test do)"; exit 2; }
	rm -rf $(GENERATED)
	mkdir -p $(GENERATED)/man $(GENERATED)/completions
	"$(BUILT)/generate-manual" "$(BUILT)/traitd" --section 8 --output-directory $(GENERATED)/man
	"$(BUILT)/generate-manual" "$(BUILT)/traitctl" --section 1 --output-directory $(GENERATED)/man
	"$(BUILT)/generate-manual" "$(BUILT)/traitd-adapters" --section 1 --output-directory $(GENERATED)/man
	for tool in traitd traitctl traitd-adapters; do \
		for shell in bash zsh fish; do \
			"$(BUILT)/$$tool" --generate-completion-script $$shell > $(GENERATED)/completions/$$tool.$$shell || exit 1; \
		done; \
	done
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SYSTEMD_USER_DIR) $(DESTDIR)$(SYSTEMD_SYSTEM_DIR) \
		$(DESTDIR)$(SYSUSERS_DIR) $(DESTDIR)$(DATADIR)/dbus-1/services $(DESTDIR)$(DATADIR)/dbus-1/system-services \
		$(DESTDIR)$(DBUS_SYSTEM_POLICY_DIR) $(DESTDIR)$(DATADIR)/dbus-1/interfaces $(DESTDIR)$(DOCDIR)/examples/layouts $(DESTDIR)$(DOCDIR)/docs \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man8 \
		$(DESTDIR)$(BASH_COMPLETION_DIR) $(DESTDIR)$(ZSH_COMPLETION_DIR) $(DESTDIR)$(FISH_COMPLETION_DIR)
	for tool in traitd traitctl traitd-adapters; do \
		install -m 0755 "$(BUILT)/$$tool" $(DESTDIR)$(BINDIR)/$$tool || exit 1; \
		sed '1{/^#!/d}' $(GENERATED)/completions/$$tool.bash > $(DESTDIR)$(BASH_COMPLETION_DIR)/$$tool || exit 1; \
		install -m 0644 $(GENERATED)/completions/$$tool.zsh $(DESTDIR)$(ZSH_COMPLETION_DIR)/_$$tool || exit 1; \
		install -m 0644 $(GENERATED)/completions/$$tool.fish $(DESTDIR)$(FISH_COMPLETION_DIR)/$$tool.fish || exit 1; \
	done
	install -m 0644 $(GENERATED)/man/traitd.8 $(DESTDIR)$(MANDIR)/man8/traitd.8
	install -m 0644 $(GENERATED)/man/traitctl.1 $(DESTDIR)$(MANDIR)/man1/traitctl.1
	install -m 0644 $(GENERATED)/man/traitd-adapters.1 $(DESTDIR)$(MANDIR)/man1/traitd-adapters.1
	install -m 0644 docs/man/org.traitd.Layout1.5 $(DESTDIR)$(MANDIR)/man5/org.traitd.Layout1.5
	install -m 0644 docs/man/traitd-view.1 $(DESTDIR)$(MANDIR)/man1/traitd-view.1
	install -m 0755 tools/traitd-view $(DESTDIR)$(BINDIR)/traitd-view
	$(SUBSTITUTE) systemd/traitd-adapters.service > $(DESTDIR)$(SYSTEMD_USER_DIR)/traitd-adapters.service
	$(SUBSTITUTE) systemd/traitd.service > $(DESTDIR)$(SYSTEMD_USER_DIR)/traitd.service
	$(SUBSTITUTE) systemd/traitd-system.service > $(DESTDIR)$(SYSTEMD_SYSTEM_DIR)/traitd.service
	install -m 0644 systemd/traitd.sysusers.conf $(DESTDIR)$(SYSUSERS_DIR)/traitd.conf
	$(SUBSTITUTE) Config/dbus-1/org.traitd.Layout1.service > $(DESTDIR)$(DATADIR)/dbus-1/services/org.traitd.Layout1.service
	$(SUBSTITUTE) Config/dbus-1/system-services/org.traitd.Layout1.service \
		> $(DESTDIR)$(DATADIR)/dbus-1/system-services/org.traitd.Layout1.service
	install -m 0644 Config/dbus-1/org.traitd.Layout1.conf $(DESTDIR)$(DBUS_SYSTEM_POLICY_DIR)/org.traitd.Layout1.conf
	install -m 0644 Config/dbus-1/org.traitd.Layout1.xml $(DESTDIR)$(DATADIR)/dbus-1/interfaces/org.traitd.Layout1.xml
	install -m 0644 README.md $(DESTDIR)$(DOCDIR)/README.md
	install -m 0644 docs/*.md $(DESTDIR)$(DOCDIR)/docs/
	install -m 0644 Config/traitd.yaml $(DESTDIR)$(DOCDIR)/examples/traitd.yaml
	install -m 0644 Config/layouts/*.layout $(DESTDIR)$(DOCDIR)/examples/layouts/
	install -d $(DESTDIR)$(DATADIR)/traitd/python/traitd
	install -m 0644 clients/python/traitd/*.py clients/python/traitd/py.typed $(DESTDIR)$(DATADIR)/traitd/python/traitd/

# A Debian package of the release binaries and everything make install puts in place (PREFIX=/usr), checked with
# lintian: .build/packages/traitd_VERSION_ARCH.deb (scripts/build-deb.sh).
deb: release
	@scripts/install-deps.sh $(PACKAGE_APT_PACKAGES)
	$(RELEASE) --product generate-manual
	@scripts/build-deb.sh "$$($(RELEASE) --show-bin-path)" .build/packages

# A wheel of the Python package that carries the release binaries (traitd, traitctl, traitd-adapters on PATH,
# found by the pytest plugin): .build/packages/traitd-VERSION-py3-none-linux_ARCH.whl (scripts/build-wheel.sh).
wheel: deps
	@scripts/install-deps.sh $(PACKAGE_APT_PACKAGES)
	$(STATIC_RELEASE) --product traitd
	$(STATIC_RELEASE) --product traitctl
	$(STATIC_RELEASE) --product traitd-adapters
	@scripts/build-wheel.sh "$$($(RELEASE) --show-bin-path)" .build/packages

# Both, each installed into a place of its own (the package with dpkg --root, the wheel with pip into a venv) and
# the pytest plugin's tests run against the installed binaries, with no Swift on PATH (scripts/try-packages.sh).
package-check: deb wheel
	@scripts/install-deps.sh $(TEST_APT_PACKAGES)
	@scripts/try-packages.sh .build/packages

# SetArrangement -> TransitionCompleted with 1, 10 and 100 adapters, then a 120 calls/s MoveDivider stream
# with 50 adapters, each beside the bare libdbus peer, with RSS; then traitd's and the adapter host's memory
# across 100,000 transitions (BENCH_ARGS="--only latency|drag|memory", "--adapters 1,10", ...).
bench-transitions: deps
	$(RELEASE) --product traitd
	$(RELEASE) --product traitd-adapters
	$(RELEASE) --product bare-peer
	$(RELEASE) --product transition-benchmark
	"$$($(RELEASE) --show-bin-path)/transition-benchmark" $(BENCH_ARGS)

# One window laid out by a layout file in the host and by a web page in headless Chromium: SetArrangement ->
# TransitionCompleted p50/p99 beside one frame at 60 Hz, and the host's and the browser's memory.
bench-bridges: deps
	@scripts/install-deps.sh chromium gnome-calculator at-spi2-core xvfb xdotool
	$(RELEASE) --product traitd
	$(RELEASE) --product traitd-adapters
	$(RELEASE) --product transition-benchmark
	"$$($(RELEASE) --show-bin-path)/transition-benchmark" --only bridges $(BENCH_ARGS)

# 20 clients calling as fast as they can for 60 s (1 command in 5, the rest reads), traitd beside the bare peer:
# calls/s, p50/p99, CPU per call (BENCH_ARGS="--load-clients 40 --load-seconds 10").
bench-load: deps
	$(RELEASE) --product traitd
	$(RELEASE) --product bare-peer
	$(RELEASE) --product transition-benchmark
	"$$($(RELEASE) --show-bin-path)/transition-benchmark" --only load --load-seconds 60 $(BENCH_ARGS)

# The golden-picture check (Pixels: PNG read, pixelmatch's comparison) beside its peers on matching pairs of
# 656 x 547 pictures, looks-same's published case (18 ms): Python's pixelmatch with Pillow, from PyPI in a venv
# under .build/pixel-venv, on the same pairs (one equal, one nudged below the threshold).
bench-pixels: deps
	@scripts/install-deps.sh python3.11-doc python3-venv
	$(RELEASE) --product pixel-benchmark
	@mkdir -p .build/pixel-bench
	@test -x .build/pixel-venv/bin/python || (python3 -m venv .build/pixel-venv && .build/pixel-venv/bin/pip install --quiet pixelmatch Pillow)
	"$$($(RELEASE) --show-bin-path)/pixel-benchmark" /usr/share/doc/python3.11/html/_images/logging_flow.png .build/pixel-bench
	.build/pixel-venv/bin/python Benchmarks/pixel_peer.py .build/pixel-bench/a.png .build/pixel-bench/b.png .build/pixel-bench/c.png
	@echo "published (looks-same's benchmark/results.md, 'web avg success', 656 x 547, p50): looks-same 17.65 ms, pixelmatch (JS) 39.52 ms"

# The constraint engine beside kiwi's C++ core (built with g++ from the kiwisolver sdist) and kiwisolver, on
# Benchmarks/workloads (BENCH_ARGS=--large adds rows-300; --churn-ops N sets the mixed churn's length).
bench-solver: deps
	@scripts/install-deps.sh $(BENCH_APT_PACKAGES)
	@scripts/build-kiwi-peer.sh >/dev/null
	$(RELEASE) --product solver-benchmark
	"$$($(RELEASE) --show-bin-path)/solver-benchmark" $(BENCH_ARGS)

# Deterministic counts where the machine's timings are too noisy to tell a few per cent (see the script).
solver-counts: deps
	@scripts/solver-build-counts.sh $(COUNTS_ARGS)

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
