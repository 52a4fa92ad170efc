# ropescope: the C core built natively (CLI, tests) and to WebAssembly (the page).
CC ?= cc
CLANG ?= clang
EMCC ?= emcc
PYTHON ?= python3
NODE ?= node

WARN = -Wall -Wextra -Wshadow -Wconversion -Wpedantic -Wstrict-prototypes \
       -Wmissing-prototypes -Wvla -Wformat=2 -Werror
CFLAGS ?= -O2 -g
# No fused multiply-add: native and wasm builds must round every step alike.
STD = -std=c11 -D_POSIX_C_SOURCE=200809L -ffp-contract=off
SANITIZE = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

CORE_SRC = c_src/rope.c c_src/rope_check.c c_src/rope_batch.c c_src/rope_math.c c_src/report.c c_src/parse.c c_src/writer.c
CLI_SRC = c_src/cli.c c_src/cli_args.c c_src/cli_scan.c c_src/cli_report.c c_src/cli_files.c c_src/cli_scaling.c \
          c_src/cli/json_walk.c
CLI_HDR = c_src/cli.h c_src/cli_files.h c_src/cli_scaling.h c_src/cli/json_walk.h
CLI_INC = -Ic_src -Ic_src/cli
CORE_HDR = c_src/rope.h c_src/rope_internal.h c_src/rope_math.h c_src/report.h c_src/writer.h
# Long context: the scaling methods, the config reader and its writer (docs/SCALING.md).
SCALING_SRC = c_src/scaling.c c_src/config.c c_src/config_resolve.c c_src/config_method.c \
              c_src/scaling_write.c
SCALING_HDR = c_src/scaling.h c_src/config.h c_src/config_internal.h
# The explainer figures' functions (docs/EXPLAIN.md).
CORE_SRC += c_src/explain.c c_src/explain_scan.c
CORE_HDR += c_src/explain.h
# The one list of names the wasm module exports.
EXPORTS = $(shell sed -e 's/^/_/' c_src/exports.txt | paste -sd, -)
# Measured (make bench prints the sizes): the chart loops in rope_batch.c and the
# sin/cos/pow of rope_math.c run twice as fast at -O3 as at -Os (the dense sweep at
# dim 1024 with 4096 starts: 6.4 vs 14 ms); the contract functions and the report
# are cold code, so -Os / -Oz there and at link time. The core alone was ~27 KB; with the
# scaling reader/writer (-Oz, cold) and the explainer it is ~53 KB, under a 64 KB budget.
EMFLAGS_HOT = -O3 -msimd128
EMFLAGS_CORE = -Os -msimd128
EMFLAGS_REPORT = -Oz
EMFLAGS_LINK = -Oz -sMALLOC=emmalloc --no-entry -sSTANDALONE_WASM -sALLOW_MEMORY_GROWTH \
               -sEXPORTED_FUNCTIONS=$(EXPORTS)

# A fresh seed every run unless one is given; every randomized test prints it.
ROPE_TEST_SEED := $(or $(ROPE_TEST_SEED),$(shell od -An -N4 -tu4 /dev/urandom | tr -d ' '))
export ROPE_TEST_SEED

WEB_BUILT = web/vendor/inflate.js web/rope_wasm.js web/rope_consts.js web/models_gen.js web/vendor/chart.js web/ropescope.js web/formulas_gen.js \
            web/style.min.css
# The page's modules, bundled into web/ropescope.js (one script instead of a dozen imports).
WEB_MODULES = $(filter-out web/ropescope.js web/models_gen.js,$(wildcard web/*.js web/charts/*.js))
FUZZ_SECONDS ?= 6

.PHONY: all deps native wasm web test test-unit test-math test-asan test-fuzz fuzz-long test-mutants \
        test-diff test-cli test-js test-browser test-scaling test-fuzz-config test-explain test-reliability \
        serve dist bench clean

all: native web

native: build/ropescope build/librope.so

wasm: build/rope.wasm

web: $(WEB_BUILT)

build:
	mkdir -p build

build/ropescope: $(CLI_SRC) $(CLI_HDR) $(CORE_SRC) $(CORE_HDR) $(SCALING_SRC) $(SCALING_HDR) | build
	$(CC) $(STD) $(CFLAGS) $(WARN) $(CLI_INC) -o $@ $(CLI_SRC) $(CORE_SRC) $(SCALING_SRC) -lcjson -lm

build/librope.so: $(CORE_SRC) $(CORE_HDR) $(SCALING_SRC) $(SCALING_HDR) | build
	$(CC) $(STD) $(CFLAGS) $(WARN) -shared -fPIC -o $@ $(CORE_SRC) $(SCALING_SRC) -lm

# The unit tests fail malloc on purpose through this wrapper (tests only).
TEST_LDFLAGS = -Wl,--wrap=malloc
build/test_rope: tests/test_rope.c tests/testlib.h $(CORE_SRC) $(CORE_HDR) | build
	$(CC) $(STD) $(CFLAGS) $(WARN) -Ic_src -o $@ tests/test_rope.c $(CORE_SRC) $(TEST_LDFLAGS) -lcmocka -lm

FUZZ_CFLAGS = $(STD) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all $(WARN)
# Three fuzz targets: the core (and report writer); the CLI's argv with no files (thousands of
# runs a second); the CLI's files (report pairs in a temp folder, --config files).
build/fuzz_rope: tests/fuzz_rope.c $(CORE_SRC) $(CORE_HDR) | build
	$(CLANG) $(FUZZ_CFLAGS) -Ic_src -o $@ tests/fuzz_rope.c $(CORE_SRC) -lm

# The CLI is linked in without its main(): the fuzzers call rope_cli_run themselves.
build/fuzz_cli build/fuzz_files: build/fuzz_%: tests/fuzz_%.c tests/fuzz_argv.h $(CLI_SRC) $(CLI_HDR) $(CORE_SRC) $(CORE_HDR) $(SCALING_SRC) $(SCALING_HDR) | build
	$(CLANG) $(FUZZ_CFLAGS) -DROPE_CLI_NO_MAIN $(CLI_INC) -o $@ $< $(CLI_SRC) $(CORE_SRC) $(SCALING_SRC) -lcjson -lm

# The scaling math and the reader's C contract, under ASan + UBSan.
build/test_scaling: tests/test_scaling.c $(CORE_SRC) $(CORE_HDR) $(SCALING_SRC) $(SCALING_HDR) | build
	$(CC) $(STD) -O1 -g $(SANITIZE) $(WARN) -Ic_src -o $@ tests/test_scaling.c $(CORE_SRC) $(SCALING_SRC) -lcmocka -lm

# The config reader under ASan + UBSan: random key/value sequences and random JSON through
# cJSON, walked by the CLI's own walker (c_src/cli/json_walk.c).
build/fuzz_config: tests/fuzz_config.c c_src/cli/json_walk.c c_src/cli/json_walk.h $(CORE_SRC) $(CORE_HDR) $(SCALING_SRC) $(SCALING_HDR) | build
	$(CLANG) $(STD) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all $(WARN) \
	  $(CLI_INC) -o $@ tests/fuzz_config.c c_src/cli/json_walk.c $(CORE_SRC) $(SCALING_SRC) -lcjson -lm

build/test_math: tests/test_math.c tests/testlib.h c_src/rope_math.c c_src/rope_math.h | build
	$(CC) $(STD) $(CFLAGS) $(WARN) -Ic_src -o $@ tests/test_math.c c_src/rope_math.c -lm

# clang's UBSan also catches arithmetic on a NULL pointer (NULL + 0), which gcc's misses.
build/test_rope_asan: tests/test_rope.c tests/testlib.h $(CORE_SRC) $(CORE_HDR) | build
	$(CLANG) $(STD) -O1 -g $(SANITIZE) $(WARN) -Ic_src -o $@ tests/test_rope.c $(CORE_SRC) $(TEST_LDFLAGS) -lcmocka -lm

build/test_explain: tests/test_explain.c $(CORE_SRC) $(CORE_HDR) | build
	$(CC) $(STD) $(CFLAGS) $(WARN) -Ic_src -o $@ tests/test_explain.c $(CORE_SRC) -lcmocka -lm

build/test_explain_asan: tests/test_explain.c $(CORE_SRC) $(CORE_HDR) | build
	$(CLANG) $(STD) -O1 -g $(SANITIZE) $(WARN) -Ic_src -o $@ tests/test_explain.c $(CORE_SRC) -lcmocka -lm

build/wasm/%.o: c_src/%.c $(CORE_HDR) $(SCALING_HDR)
	mkdir -p build/wasm
	$(EMCC) $(STD) $(WARN) $(EMFLAGS_CORE) -c -o $@ $<

build/wasm/rope_batch.o build/wasm/rope_math.o: EMFLAGS_CORE = $(EMFLAGS_HOT)

# The scaling math, the config reader and its writers are cold code, like the report.
build/wasm/scaling.o build/wasm/config.o build/wasm/config_resolve.o build/wasm/config_method.o build/wasm/scaling_write.o \
  build/wasm/writer.o build/wasm/parse.o: EMFLAGS_CORE = $(EMFLAGS_REPORT)

build/wasm/report.o: c_src/report.c $(CORE_HDR)
	mkdir -p build/wasm
	$(EMCC) $(STD) $(WARN) $(EMFLAGS_REPORT) -c -o $@ $<

WASM_OBJ = build/wasm/rope.o build/wasm/rope_check.o build/wasm/rope_batch.o build/wasm/rope_math.o build/wasm/report.o \
           build/wasm/parse.o build/wasm/writer.o build/wasm/scaling.o build/wasm/config.o build/wasm/config_resolve.o \
           build/wasm/config_method.o build/wasm/scaling_write.o
WASM_OBJ += build/wasm/explain.o build/wasm/explain_scan.o
build/rope.wasm: $(WASM_OBJ) c_src/exports.txt
	$(EMCC) $(EMFLAGS_LINK) -o $@ $(WASM_OBJ)

# The wasm bytes inlined (deflated, base64), so importing rope.js needs no server and no fetch.
web/rope_wasm.js: build/rope.wasm tools/pack.mjs
	$(NODE) tools/pack.mjs wasm $< $@

# fflate's synchronous inflate (MIT) as a plain ES module, for web/packed.js; its set-up runs
# at the first call (the page rarely calls it before the first chart).
web/vendor/inflate.js: tools/vendor_inflate.mjs node_modules/chart.js/dist/chart.umd.js package-lock.json
	mkdir -p web/vendor
	$(NODE) tools/vendor_inflate.mjs $@

# TeX rendered to MathML at build time (temml), so the page loads no math library
# or font. The chart.js prerequisite is where npm ci installs node_modules.
web/formulas_gen.js: tools/formulas.mjs tools/pack.mjs node_modules/chart.js/dist/chart.umd.js
	$(NODE) tools/formulas.mjs $@

# Every numeric #define ROPE_* of the public headers, for the JS side (limits, codes, defaults).
web/rope_consts.js: c_src/rope.h c_src/report.h c_src/config.h c_src/explain.h tools/consts.mjs
	$(NODE) tools/consts.mjs $@ c_src/rope.h c_src/report.h c_src/config.h c_src/explain.h

# The model configs as a module: the page cannot fetch JSON from file://.
web/models_gen.js: $(wildcard web/models/*.json) tools/models.mjs tools/pack.mjs
	$(NODE) tools/models.mjs $@ $(wildcard web/models/*.json)

# The page's script: app.js and everything it imports (the wasm inlined), in one file.
web/ropescope.js: $(WEB_MODULES) web/rope_wasm.js web/rope_consts.js web/formulas_gen.js web/models_gen.js web/vendor/inflate.js
	npx --no-install esbuild web/app.js --bundle --format=iife --minify --target=es2020 \
	  --legal-comments=none --log-level=warning --outfile=$@

# The stylesheet the page loads: web/style.css (the source) minified, about a fifth smaller.
web/style.min.css: web/style.css
	npx --no-install esbuild $< --minify --log-level=warning --outfile=$@

# Chart.js with only the controllers, elements, scales and plugins the figures use. Its first
# line asks V8 to compile every function while the file streams in (off the main thread): the
# first chart runs most of them, and compiling them one by one on first call was ~20 ms of it.
web/vendor/chart.js: tools/chart_entry.mjs tools/chart_parts.mjs node_modules/chart.js/dist/chart.umd.js package-lock.json
	mkdir -p web/vendor
	npx --no-install esbuild $< --bundle --format=iife --minify --target=es2020 \
	  --legal-comments=eof --banner:js="//# allFunctionsCalledOnLoad" --log-level=warning --outfile=$@

node_modules/chart.js/dist/chart.umd.js: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

# Installs what a fresh Debian 12 machine lacks: apt-get as root, else the exact command.
deps:
	@missing=""; \
	command -v $(EMCC) >/dev/null 2>&1 || missing="$$missing emscripten"; \
	[ -x /usr/bin/chromium ] || missing="$$missing chromium"; \
	[ -f /usr/include/cmocka.h ] || missing="$$missing libcmocka-dev"; \
	[ -f /usr/include/cjson/cJSON.h ] || missing="$$missing libcjson-dev"; \
	command -v $(CLANG) >/dev/null 2>&1 || missing="$$missing clang"; \
	[ -f "$$($(CLANG) -print-file-name=libclang_rt.fuzzer-x86_64.a 2>/dev/null)" ] || missing="$$missing libclang-rt-14-dev"; \
	command -v $(NODE) >/dev/null 2>&1 || missing="$$missing nodejs npm"; \
	command -v $(PYTHON) >/dev/null 2>&1 || missing="$$missing python3"; \
	command -v strace >/dev/null 2>&1 || missing="$$missing strace"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq$$missing; \
	  else \
	    echo "missing:$$missing -- run: sudo apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi
	@[ -f node_modules/.package-lock.json ] && [ node_modules/.package-lock.json -nt package-lock.json ] \
	  || npm ci --no-audit --no-fund

test: deps
	@echo "ROPE_TEST_SEED=$(ROPE_TEST_SEED)  (set it to reproduce this run)"
	$(MAKE) --no-print-directory all
	$(MAKE) --no-print-directory test-unit test-math test-asan test-fuzz test-mutants test-diff test-explain \
	  test-cli test-reliability test-js test-scaling test-fuzz-config test-browser
	@echo "make test: all suites passed (ROPE_TEST_SEED=$(ROPE_TEST_SEED))"

test-unit: build/test_rope
	build/test_rope

test-math: build/test_math
	build/test_math

test-asan: build/test_rope_asan
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 build/test_rope_asan

# Random bytes as every function's arguments, as the CLI's argv and as its files, under
# ASan + UBSan, FUZZ_SECONDS per target. The committed seeds in tests/fuzz-corpus are read
# by all three; what a run finds is written under build/, never into the repository. Each
# target's line gives its runs, execs/s and coverage (edges "cov", features "ft").
FUZZ_TARGETS = fuzz_rope fuzz_cli fuzz_files
test-fuzz: $(addprefix build/,$(FUZZ_TARGETS))
	@for t in $(FUZZ_TARGETS); do \
	  mkdir -p build/fuzz-corpus/$$t; \
	  build/$$t -max_total_time=$(FUZZ_SECONDS) -seed=$(ROPE_TEST_SEED) -print_final_stats=1 \
	    -artifact_prefix=build/$$t- build/fuzz-corpus/$$t tests/fuzz-corpus \
	    > build/$$t.log 2>&1 || { tail -40 build/$$t.log; exit 1; }; \
	  runs=$$(sed -n 's/^stat::number_of_executed_units: *//p' build/$$t.log); \
	  rate=$$(sed -n 's/^stat::average_exec_per_sec: *//p' build/$$t.log); \
	  cov=$$(grep -E '(DONE|pulse|NEW|REDUCE|INITED) +cov:' build/$$t.log | tail -1 \
	         | sed -E 's/.*(cov: [0-9]+ ft: [0-9]+).*/\1/'); \
	  echo "$$t: $$runs runs in $(FUZZ_SECONDS) s, $$rate execs/s, $$cov, no findings"; \
	done

# The same for ten minutes per target (override with FUZZ_SECONDS=N).
fuzz-long: FUZZ_SECONDS = 600
fuzz-long: test-fuzz

test-mutants:
	sh tests/mutants.sh

test-diff: build/librope.so
	$(PYTHON) tests/gen_cases.py --seed $(ROPE_TEST_SEED) --out build/cases.json
	$(PYTHON) tests/diff_native.py build/cases.json --dump build/native_results.json

# The explainer functions against tests/ref_explain.py; the native results feed
# the wasm test's bit-for-bit comparison (tests/js/explain.test.mjs).
test-explain: build/librope.so build/test_explain build/test_explain_asan
	build/test_explain
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 build/test_explain_asan
	$(PYTHON) tests/ref_explain.py --seed $(ROPE_TEST_SEED) --out build/explain_cases.json
	$(PYTHON) tests/diff_explain.py build/explain_cases.json --dump build/explain_native.json

test-cli: build/ropescope
	$(PYTHON) tests/test_cli.py

# Hostile files, messages and kills at every system call of the report's writes (strace).
test-reliability: build/ropescope
	$(PYTHON) tests/test_reliability.py

# Long context: the reference numbers of web/models/, native, CLI and wasm against
# tests/ref_scaling.py on fresh random configs, and bad configs at every layer.
test-scaling: build/test_scaling build/librope.so build/ropescope $(WEB_BUILT)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 build/test_scaling
	$(PYTHON) tests/diff_scaling.py --seed $(ROPE_TEST_SEED) --cases build/scaling_cases.json
	$(PYTHON) tests/test_scaling_cli.py
	SCALING_CASES=build/scaling_cases.json SCALING_BAD=build/scaling_bad.json \
	  $(NODE) --test tests/js/scaling.test.mjs

FUZZ_CONFIG_SECONDS ?= 5
test-fuzz-config: build/fuzz_config
	mkdir -p build/fuzz-config-corpus
	@for f in web/models/*.json; do { printf 0; cat $$f; } > build/fuzz-config-corpus/$$(basename $$f).seed; done
	@build/fuzz_config -max_total_time=$(FUZZ_CONFIG_SECONDS) -seed=$(ROPE_TEST_SEED) \
	  build/fuzz-config-corpus > build/fuzz_config.log 2>&1 || { tail -40 build/fuzz_config.log; exit 1; }
	@grep -E '^Done [0-9]+ runs' build/fuzz_config.log | sed 's/^/fuzz_config: /'

# test-explain writes the explainer cases (reference and native) that tests/js/explain reads.
test-js: $(WEB_BUILT) test-diff test-explain
	$(NODE) --test $(filter-out tests/js/scaling.test.mjs,$(wildcard tests/js/*.test.mjs))

test-browser: all dist
	$(NODE) --test --test-concurrency=1 tests/browser/*.test.mjs

serve: deps
	$(MAKE) --no-print-directory all
	@echo "ropescope explorer: http://127.0.0.1:8000/ (127.0.0.1 only; the page's CSP sent as a header)"
	$(NODE) tools/serve.mjs web 8000

dist: $(WEB_BUILT)
	$(NODE) tools/dist.mjs

# How long the slowest call at ROPE_MAX_WORK takes (docs/SPEC.md, "Limits").
build/bench_limits: tools/bench_limits.c $(CORE_SRC) $(CORE_HDR) | build
	$(CC) $(STD) $(CFLAGS) $(WARN) -Ic_src -o $@ tools/bench_limits.c $(CORE_SRC) -lm

bench: all build/bench_limits
	sh tools/bench_limits.sh build/bench_limits build/ropescope
	sh tools/bench_scan.sh build/ropescope
	$(NODE) tools/bench.mjs
	$(NODE) tools/bench_explain.mjs

clean:
	rm -rf build dist web/rope_wasm.js web/rope_consts.js web/models_gen.js web/ropescope.js web/formulas_gen.js web/vendor
