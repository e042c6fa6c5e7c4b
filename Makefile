# Thin wrapper over CMake. `make` builds into build/, `make run` runs the main job on the
# bundled default, `make test` runs every test: the format check, the release tests, the same
# tests under ASan+UBSan, then a clang build of everything with each fuzz target run briefly,
# and beside that fuzz run (one core) a -DCMAKE_BUILD_TYPE=Release build of everything (compile
# only, the other core). `make build-types` builds every build type with gcc and clang.
BUILD        ?= build
JOBS         ?= 2
FUZZ_SECONDS ?= 20
CMAKE_FLAGS  ?=

# cmake --build runs make again under this make: keep its "Entering directory" lines out of
# the output (MAKEFLAGS reaches the nested makes through the environment).
MAKEFLAGS += --no-print-directory

.PHONY: all deps build run test test-release test-sanitize test-fuzz build-types bench bench-maps \
        format check-format clean distclean

all: build

# A quick check each time; apt-get runs only for something missing (scripts/deps.sh).
deps:
	@scripts/deps.sh

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j$(JOBS)
	@scripts/gltf-validator.sh $(BUILD)
	@scripts/three-js.sh $(BUILD)

run: build
	@scripts/run-default.sh $(BUILD)

test: check-format test-release test-sanitize test-fuzz
	@echo "make test: all stages passed"

test-release: build
	ctest --test-dir $(BUILD) -j$(JOBS) --output-on-failure

test-sanitize: deps
	@cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DBLVL_SANITIZE=ON >/dev/null
	@cmake --build build-asan -j$(JOBS)
	@scripts/gltf-validator.sh build-asan
	@scripts/three-js.sh build-asan
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  BLVL_SANITIZED=1 ctest --test-dir build-asan -j$(JOBS) --output-on-failure

# The fuzz targets run one at a time (one core): the Release build (compile only, the default
# compiler) takes the other core, so it adds nothing to the suite's wall time.
test-fuzz: deps
	@CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBLVL_FUZZ=ON >/dev/null
	@cmake --build build-fuzz -j$(JOBS)   # the whole tree with clang -Werror, and the fuzz targets
	@CMAKE_FLAGS="$(CMAKE_FLAGS)" scripts/build-types.sh build-release 1 Release & rel=$$!; \
	  scripts/fuzz-smoke.sh build-fuzz $(FUZZ_SECONDS); fuzz=$$?; \
	  wait $$rel; release=$$?; [ $$fuzz -eq 0 ] && [ $$release -eq 0 ]

# Release, RelWithDebInfo, Debug and MinSizeRel, each with gcc and clang, every target with
# -Werror (compile only, into build-types-COMPILER-TYPE/).
build-types: deps
	@CMAKE_FLAGS="$(CMAKE_FLAGS)" scripts/build-types.sh build-types $(JOBS) \
	  Release RelWithDebInfo Debug MinSizeRel -- gcc clang

bench: build
	@scripts/bench.sh $(BUILD)

# Every map of OpenArena's pak1-maps.pk3 baked in parallel: bake time, size, verify speed.
bench-maps: build
	@scripts/bench-maps.sh $(BUILD)

format:
	@clang-format -i $$(git ls-files '*.c' '*.h' | grep -v '^src/sections/gen/')

check-format: deps
	@clang-format --dry-run -Werror $$(git ls-files '*.c' '*.h' | grep -v '^src/sections/gen/')

# The build folders only: the extracted BLAKE3 sources in .deps/ stay, so the next build needs
# no network. distclean removes them too.
clean:
	rm -rf $(BUILD) build-asan build-fuzz build-release build-types-*

distclean: clean
	rm -rf .deps
