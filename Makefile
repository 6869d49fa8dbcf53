# SPDX-License-Identifier: MIT
# Thin wrapper over CMake and CTest; the build itself is described in CMakeLists.txt.
#
#   make test        build/ (BUILD_TYPE), every test but those labelled "slow"
#   make test-slow   build/, only the tests labelled "slow"
#   make bench       build/, then bench/run-main.sh: `cutoff bench` on its defaults
#                    (about 5 minutes on 2 cores), into a report folder
#                    bench-report-YYYYMMDD-HHMMSS; BENCH_ARGS adds options
#   make asan        build-asan/, address+undefined sanitizers, every test but "slow"
#   make tsan        build-tsan/, thread sanitizer, the tests labelled "concurrent"
#                    (both SAN_BUILD_TYPE, default RelWithDebInfo, with assert() kept,
#                    compiled by SAN_CC, default clang: so CI builds with gcc and clang)
#   make install     build/, installed under PREFIX (default /usr/local)
#   make format      clang-format -i over src, include, tests and docs/examples
#   make format-check  the same files, clang-format --dry-run --Werror: fails on a change
#   make analyze     cppcheck over src/ (build/compile_commands.json); any finding fails,
#                    but those tools/cppcheck.supp lists, each with its reason
#   make coverage    build-coverage/ (gcc --coverage), every test but "slow", then gcovr:
#                    line coverage of src/, in total and per file (text on stdout,
#                    build-coverage/coverage/index.html)
#   make clean       remove the build directories
#
# With CI=true in the environment every build adds -Werror (CUTOFF_WERROR=ON).
# Variables: BUILD_TYPE, SAN_BUILD_TYPE, PREFIX, WERROR (ON/OFF), CTEST_JOBS, and CMAKE_FLAGS
# for anything else (e.g. make test CMAKE_FLAGS=-DCMAKE_C_COMPILER=clang).

BUILD_TYPE ?= Release
SAN_BUILD_TYPE ?= RelWithDebInfo
SAN_CC ?= clang
PREFIX ?= /usr/local
CMAKE ?= cmake
CTEST ?= ctest
NPROC := $(shell nproc 2>/dev/null || echo 2)
CTEST_JOBS ?= 2
CTEST_FLAGS ?= --output-on-failure

ifeq ($(CI),true)
WERROR ?= ON
else
WERROR ?= OFF
endif

# Configuring again is cheap and keeps the cache in step with the variables above.
CONFIGURE = $(CMAKE) -S . -B $(1) -DCMAKE_BUILD_TYPE=$(2) -DCUTOFF_WERROR=$(WERROR) \
	-DCMAKE_INSTALL_PREFIX=$(PREFIX) -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
	-DCUTOFF_SANITIZE=$(3) $(CMAKE_FLAGS)

# The files clang-format owns (make format, make format-check).
FORMAT_FILES = find $(wildcard src include tests docs/examples) -name '*.[ch]' -print0

.PHONY: all deps build build-asan build-tsan test test-slow bench asan tsan install format \
	format-check analyze build-coverage coverage clean

all: build

deps:
	@.ci/setup-deps

build: deps
	$(call CONFIGURE,build,$(BUILD_TYPE),)
	$(CMAKE) --build build -j $(NPROC)

test: build
	$(CTEST) --test-dir build $(CTEST_FLAGS) -LE slow -j $(CTEST_JOBS)

test-slow: build
	$(CTEST) --test-dir build $(CTEST_FLAGS) -L slow --no-tests=ignore

bench: build
	BENCH_ARGS="$(BENCH_ARGS)" bench/run-main.sh build

build-asan: deps
	@.ci/setup-deps $(SAN_CC)
	$(call CONFIGURE,build-asan,$(SAN_BUILD_TYPE),address) -DCUTOFF_ASSERTS=ON \
		-DCMAKE_C_COMPILER=$(SAN_CC)
	$(CMAKE) --build build-asan -j $(NPROC)

asan: build-asan
	$(CTEST) --test-dir build-asan $(CTEST_FLAGS) -LE slow -j $(CTEST_JOBS)

build-tsan: deps
	@.ci/setup-deps $(SAN_CC)
	$(call CONFIGURE,build-tsan,$(SAN_BUILD_TYPE),thread) -DCUTOFF_ASSERTS=ON \
		-DCMAKE_C_COMPILER=$(SAN_CC)
	$(CMAKE) --build build-tsan -j $(NPROC)

tsan: build-tsan
	$(CTEST) --test-dir build-tsan $(CTEST_FLAGS) -L concurrent -j $(CTEST_JOBS) --no-tests=ignore

install: build
	$(CMAKE) --install build --prefix $(PREFIX)

format:
	@.ci/setup-deps clang-format
	$(FORMAT_FILES) | xargs -0 -r clang-format -i

format-check:
	@.ci/setup-deps clang-format
	$(FORMAT_FILES) | xargs -0 -r clang-format --dry-run --Werror

# cppcheck's warning, portability and performance checks (not its style opinions) over the
# library and the command, as compiled (the compile database gives the flags and paths).
analyze: build
	@.ci/setup-deps cppcheck
	cppcheck --project=build/compile_commands.json --enable=warning,portability,performance \
		--inline-suppr --suppressions-list=tools/cppcheck.supp --error-exitcode=1 \
		--quiet -j $(NPROC) -i tests -i bench -i build
	@echo "analyze: cppcheck found nothing (tools/cppcheck.supp lists what is set aside)"

# Coverage: counters updated atomically, since the tests run many threads.
build-coverage: deps
	@.ci/setup-deps gcovr
	$(call CONFIGURE,build-coverage,RelWithDebInfo,) -DCUTOFF_ASSERTS=ON \
		"-DCMAKE_C_FLAGS=--coverage -fprofile-update=atomic" \
		-DCMAKE_EXE_LINKER_FLAGS=--coverage -DCMAKE_SHARED_LINKER_FLAGS=--coverage
	$(CMAKE) --build build-coverage -j $(NPROC)

# The figures are printed even when a test failed (the failure is then the exit status).
# The build folder, and every count file the tests write (umask 0), are writable for every
# user: a test that runs the command as another one (bench.sh's "nobody") must be able to
# write its counts, or the runtime says so on that command's stderr, which the test reads. The counts are read from the real
# library, the command and the tests; from the simulated library and the cutoff-sim
# program only the simulator's own files (src/sim, the simulated transport): their copies
# of the other files are compiled with other definitions, whose inline functions sit on
# other lines, which gcovr (5.2) cannot merge.
COVERAGE_DIRS = $(addprefix build-coverage/CMakeFiles/,cutoff_objects.dir cutoff_cli.dir \
	cutoff_cluster.dir cutoff_sim_static.dir/src/sim cutoff_sim_static.dir/src/cluster) \
	build-coverage/tests
coverage: build-coverage
	find build-coverage -name '*.gcda' -delete
	mkdir -p build-coverage/coverage
	chmod -R a+rwX build-coverage
	status=0; umask 0; $(CTEST) --test-dir build-coverage $(CTEST_FLAGS) -LE slow \
		-j $(CTEST_JOBS) || status=$$?; \
	gcovr --root . --filter 'src/' $(wildcard $(COVERAGE_DIRS)) \
		--html-details build-coverage/coverage/index.html --txt - --sort-percentage \
		&& exit $$status

clean:
	rm -rf build build-asan build-tsan build-coverage
