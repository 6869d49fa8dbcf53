#!/bin/bash
# SPDX-License-Identifier: MIT
# install_test.sh BUILD_DIR SOURCE_DIR CC [CFLAGS]
#
# Installs the build into a scratch prefix under BUILD_DIR and checks that an outside
# project can use it, the way a user would:
#   1. docs/examples/nim through find_package(cutoff) -> cutoff::cutoff (shared)
#   2. the same nim.c through find_package(cutoff COMPONENTS static) -> cutoff::cutoff_static
#   3. the same nim.c through `pkg-config --cflags --libs cutoff` (shared, LD_LIBRARY_PATH),
#      after checking that `pkg-config --cflags cutoff` is the include directory alone
#      (no flag of a dependency: cutoff's headers include none)
#   4. the same nim.c against libcutoff.a and `pkg-config --static --libs cutoff` (its
#      Libs.private: ck, hwloc, threads, libm)
# that the manual pages are installed where `man cutoff` finds them (when the build made
# them), and that find_package(cutoff X.Y) accepts this minor version (0.3 for 0.3.0) and
# refuses the one before and the one after.
# Each program must exit 0 and print a line containing "nim". CFLAGS (the build's own C
# flags, sanitizers included) are used for every compile and link.
set -euo pipefail

if [ $# -lt 3 ]; then
	echo "usage: $0 BUILD_DIR SOURCE_DIR CC [CFLAGS]" >&2
	exit 2
fi
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
cc=$3
cflags=${4:-}
cmake=${CMAKE:-cmake}
example="$src/docs/examples/nim"

tmp=$(mktemp -d "$build/install_test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"
log="$tmp/log"

step() { printf 'install_test: %s\n' "$*"; }

# Runs a command quietly; on failure shows its output and stops.
quiet() {
	if ! "$@" >"$log" 2>&1; then
		echo "install_test: FAILED: $*" >&2
		cat "$log" >&2
		exit 1
	fi
}

# Runs a built example and checks its output.
check_run() {
	local what=$1
	shift
	local out
	if ! out=$("$@" 2>&1); then
		printf '%s\n' "$out" >&2
		echo "install_test: FAILED: $what exited non-zero" >&2
		exit 1
	fi
	if ! printf '%s\n' "$out" | grep -q nim; then
		printf '%s\n' "$out" >&2
		echo "install_test: FAILED: $what printed no line with \"nim\"" >&2
		exit 1
	fi
	step "ok: $what ($(printf '%s\n' "$out" | wc -l) lines)"
}

step "install $build -> $prefix"
quiet "$cmake" --install "$build" --prefix "$prefix"

for f in include/cutoff.h include/cutoff_games.h; do
	[ -f "$prefix/$f" ] || { echo "install_test: FAILED: $f not installed" >&2; exit 1; }
done
# The manual pages, where the build made them (help2man): `man cutoff` finds the
# installed page, as it would under /usr/local.
if [ -f "$build/man/cutoff.1" ]; then
	for f in cutoff.1 cutoff-search.1 cutoff-bench.1; do
		[ -f "$prefix/share/man/man1/$f" ] ||
			{ echo "install_test: FAILED: share/man/man1/$f not installed" >&2; exit 1; }
	done
	if command -v man >/dev/null 2>&1; then
		page=$(MANPATH="$prefix/share/man" man -w cutoff 2>/dev/null) || page=
		[ "$page" = "$prefix/share/man/man1/cutoff.1" ] ||
			{ echo "install_test: FAILED: man -w cutoff found '$page'" >&2; exit 1; }
		MANPATH="$prefix/share/man" MANWIDTH=80 man cutoff 2>/dev/null | grep -q "parallel alpha-beta" ||
			{ echo "install_test: FAILED: man cutoff does not show the page" >&2; exit 1; }
	fi
	step "ok: man cutoff (the installed pages)"
fi
pc=$(find "$prefix" -name cutoff.pc -path '*/pkgconfig/*' | head -n 1)
[ -n "$pc" ] || { echo "install_test: FAILED: cutoff.pc not installed" >&2; exit 1; }
pcdir=$(dirname "$pc")
libdir=$(dirname "$pcdir")
major=$(sed -n 's/^#define CUTOFF_VERSION_MAJOR \([0-9]*\)$/\1/p' "$src/include/cutoff.h")
minor=$(sed -n 's/^#define CUTOFF_VERSION_MINOR \([0-9]*\)$/\1/p' "$src/include/cutoff.h")
for f in libcutoff.so "libcutoff.so.$major.$minor" libcutoff.a; do
	[ -e "$libdir/$f" ] || { echo "install_test: FAILED: $libdir/$f not installed" >&2; exit 1; }
done

configure_args=(-DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc"
	-DCMAKE_C_FLAGS="$cflags" -DCMAKE_BUILD_TYPE=Release)

step "find_package(cutoff): docs/examples/nim"
quiet "$cmake" -S "$example" -B "$tmp/nim-shared" "${configure_args[@]}"
quiet "$cmake" --build "$tmp/nim-shared"
check_run "find_package, shared" "$tmp/nim-shared/nim"

step "find_package(cutoff COMPONENTS static)"
mkdir -p "$tmp/static-src"
cat >"$tmp/static-src/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.16)
project(nim_static C)
find_package(cutoff $major.$minor REQUIRED COMPONENTS static)
add_executable(nim_static "$example/nim.c")
target_link_libraries(nim_static cutoff::cutoff_static)
EOF
quiet "$cmake" -S "$tmp/static-src" -B "$tmp/nim-static" "${configure_args[@]}"
quiet "$cmake" --build "$tmp/nim-static"
check_run "find_package, static" "$tmp/nim-static/nim_static"

# The package tells old from new: 0.x promises the API within one minor version only, so
# a project that asks for another minor version must be refused (SameMinorVersion).
step "find_package(cutoff VERSION): the same minor version only"
want_found() { # VERSION yes|no
	local dir="$tmp/version-$1"
	mkdir -p "$dir"
	printf '%s\n' "cmake_minimum_required(VERSION 3.16)" "project(version_probe C)" \
		"find_package(cutoff $1 QUIET)" \
		"if(NOT cutoff_FOUND)" "  message(FATAL_ERROR \"cutoff $1: not found\")" "endif()" \
		>"$dir/CMakeLists.txt"
	local got=no
	"$cmake" -S "$dir" -B "$dir/build" "${configure_args[@]}" >"$log" 2>&1 && got=yes
	if [ "$got" != "$2" ]; then
		echo "install_test: FAILED: find_package(cutoff $1) found=$got, expected $2" >&2
		cat "$log" >&2
		exit 1
	fi
	step "ok: find_package(cutoff $1): found=$got"
}
want_found "$major.$minor" yes
want_found "$major.$minor.0" yes
if [ "$minor" -gt 0 ]; then
	want_found "$major.$((minor - 1))" no
fi
want_found "$major.$((minor + 1))" no

step "pkg-config cutoff ($pc)"
export PKG_CONFIG_PATH="$pcdir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
quiet pkg-config --exists --print-errors cutoff
read -r pc_cflags <<<"$(pkg-config --cflags cutoff)"
if [ "$pc_cflags" != "-I$(pkg-config --variable=includedir cutoff)" ]; then
	echo "install_test: FAILED: pkg-config --cflags cutoff is '$pc_cflags', not the include directory alone" >&2
	exit 1
fi
step "ok: pkg-config --cflags cutoff: $pc_cflags"
# shellcheck disable=SC2086,SC2046 # the flags are meant to split into words
{
	quiet $cc $cflags -o "$tmp/nim-pc" "$example/nim.c" $(pkg-config --cflags --libs cutoff)
	check_run "pkg-config, shared" env LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
		"$tmp/nim-pc"

	# libcutoff.a with shared ck and hwloc: `--static --libs` but its -lcutoff, which
	# would take the libcutoff.so installed beside the archive.
	private=()
	for flag in $(pkg-config --static --libs cutoff); do
		[ "$flag" = -lcutoff ] || private+=("$flag")
	done
	quiet $cc $cflags -o "$tmp/nim-pc-static" "$example/nim.c" $(pkg-config --cflags cutoff) \
		"$libdir/libcutoff.a" "${private[@]}"
	step "static link flags: ${private[*]}"
	check_run "pkg-config, static" "$tmp/nim-pc-static"
}

step "passed"
