# Thin wrapper over CMake and CTest; the build itself is described in CMakeLists.txt.
#
#   make test        build/ (BUILD_TYPE), every test but those labelled "slow"
#   make test-slow   build/, only the tests labelled "slow"
#   make bench       build/, then bench/run-main.sh: `cutoff bench` on its defaults
#                    (about 5 minutes on 2 cores), into a report folder
#                    bench-report-YYYYMMDD-HHMMSS; BENCH_ARGS adds options
#   make asan        build-asan/, address+undefined sanitizers, every test but "slow"
#   make tsan        build-tsan/, thread sanitizer, the tests labelled "concurrent"
#                    (both SAN_BUILD_TYPE, default RelWithDebInfo, with assert() kept)
#   make install     build/, installed under PREFIX (default /usr/local)
#   make format      clang-format -i over src, include, tests and docs/examples
#   make clean       remove the build directories
#
# With CI=true in the environment every build adds -Werror (CUTOFF_WERROR=ON).
# Variables: BUILD_TYPE, SAN_BUILD_TYPE, PREFIX, WERROR (ON/OFF), CTEST_JOBS, and CMAKE_FLAGS
# for anything else (e.g. make test CMAKE_FLAGS=-DCMAKE_C_COMPILER=clang).

BUILD_TYPE ?= Release
SAN_BUILD_TYPE ?= RelWithDebInfo
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
	-DCMAKE_INSTALL_PREFIX=$(PREFIX) \
	-DCUTOFF_SANITIZE=$(3) $(CMAKE_FLAGS)

.PHONY: all deps build build-asan build-tsan test test-slow bench asan tsan install format clean

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
	$(call CONFIGURE,build-asan,$(SAN_BUILD_TYPE),address) -DCUTOFF_ASSERTS=ON
	$(CMAKE) --build build-asan -j $(NPROC)

asan: build-asan
	$(CTEST) --test-dir build-asan $(CTEST_FLAGS) -LE slow -j $(CTEST_JOBS)

build-tsan: deps
	$(call CONFIGURE,build-tsan,$(SAN_BUILD_TYPE),thread) -DCUTOFF_ASSERTS=ON
	$(CMAKE) --build build-tsan -j $(NPROC)

tsan: build-tsan
	$(CTEST) --test-dir build-tsan $(CTEST_FLAGS) -L concurrent -j $(CTEST_JOBS) --no-tests=ignore

install: build
	$(CMAKE) --install build --prefix $(PREFIX)

format:
	find $(wildcard src include tests docs/examples) -name '*.[ch]' -print0 \
		| xargs -0 -r clang-format -i

clean:
	rm -rf build build-asan build-tsan
