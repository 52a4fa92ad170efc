# ropescope: the C core built natively (CLI, tests) and to WebAssembly (the page).
CC ?= cc
CLANG ?= clang
CLANG_FORMAT ?= clang-format
EMCC ?= emcc
# Debian's Python (make deps installs it), not the PATH's python3: a version manager's shim
# there costs a quarter of a second of CPU per run. The tests read the same (tests/lib/testlib.mjs).
PYTHON ?= /usr/bin/python3
# The reference NumPy for tests/diff/test_nprandom.py: Debian's python3-numpy.
NUMPY_PYTHON ?= /usr/bin/python3
NODE ?= node
# The npm packages' commands, run directly: npx would start npm's CLI first, a second of a busy
# machine each time.
BIN = node_modules/.bin

WARN = -Wall -Wextra -Wshadow -Wconversion -Wpedantic -Wstrict-prototypes \
       -Wmissing-prototypes -Wvla -Wformat=2 -Werror
CFLAGS ?= -O2 -g
# No fused multiply-add: native and wasm builds must round every step alike.
STD = -std=c11 -D_POSIX_C_SOURCE=200809L -ffp-contract=off
SANITIZE = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

# The C tree, one folder a room, each header included by its room ("core/rope.h"): core/ (the
# contract, checks, batch loops, math, number grammar), explain/ (the explainer figures,
# docs/EXPLAIN.md), lesson/ (the lesson's chapters and the post's numbers, docs/LESSON.md),
# nprandom/ (NumPy's normal sampler), report/ (the report and the text writer), scaling/ (long
# context: methods, the config reader, its outputs, docs/SCALING.md), port/ and verify/
# (docs/VERIFY.md), cli/ (the commands).
CORE_SRC = $(addprefix c_src/core/,rope.c check.c batch.c rope_math.c parse.c) \
           $(addprefix c_src/report/,report.c writer.c) $(addprefix c_src/explain/,explain.c scan.c)
CORE_HDR = $(addprefix c_src/core/,rope.h rope_internal.h rope_math.h) \
           $(addprefix c_src/report/,report.h writer.h) c_src/explain/explain.h
CLI_SRC = $(addprefix c_src/cli/,main.c args.c scan.c report.c files.c scaling.c)
CLI_HDR = $(addprefix c_src/cli/,cli.h files.h cli_scaling.h)
SCALING_SRC = $(addprefix c_src/scaling/,scaling.c methods.c config.c resolve.c method.c model.c write.c \
                write_model.c read_json.c json_parser.c)
SCALING_HDR = $(addprefix c_src/scaling/,scaling.h methods.h config.h config_internal.h write_model.h) \
              $(wildcard c_src/vendor/jansson/*.h c_src/vendor/jansson/*.c)
# NumPy's default_rng(seed).normal() in C, for the blog's 512-dimension example.
CORE_SRC += c_src/nprandom/nprandom.c c_src/nprandom/np_ziggurat.c
CORE_HDR += c_src/nprandom/nprandom.h c_src/nprandom/np_ziggurat.h
# The lesson's chapters and the post's numbers checked (docs/LESSON.md).
CORE_SRC += c_src/lesson/lesson.c c_src/lesson/lesson_rope.c c_src/lesson/lesson_post.c
CORE_HDR += c_src/lesson/lesson.h
# How a port may compute RoPE differently (number formats, pairing layouts): verify's rules,
# which the page's precision and layout figures draw (docs/VERIFY.md).
CORE_SRC += c_src/port/precision.c c_src/port/layout.c c_src/port/query.c
CORE_HDR += c_src/port/port.h
# `ropescope verify` (docs/VERIFY.md): the command, its readers and its checker.
VERIFY_SRC = $(addprefix c_src/verify/,table.c npy.c safetensors.c text.c check.c pairing.c diagnose.c run.c against.c)
CLI_SRC += c_src/cli/verify.c $(VERIFY_SRC) c_src/verify/checkpoint.c
CLI_HDR += c_src/verify/verify.h c_src/verify/run.h
# jansson (c_src/vendor/jansson, the strict JSON parser of config files) is a system folder:
# the warning flags judge our code, not its.
INC = -Ic_src -isystem c_src/vendor/jansson
# The post's printed numbers are a table, c_src/lesson/post_numbers.txt; the build writes it as
# the C rows lesson_post.c includes (build/gen/post_rows.inc).
CORE_HDR += build/gen/post_rows.inc
INC += -Ibuild/gen
# The one list of names the lesson's wasm module exports (the files module's: c_src/files_exports.txt).
EXPORTS = $(shell sed -e 's/^/_/' c_src/exports.txt | paste -sd, -)
# The chart loops in core/batch.c and the sin/cos/pow of core/rope_math.c run twice as fast
# at -O3 as at -Os; the contract functions, the report, the scaling reader and the lesson are
# cold code, so -Os / -Oz there and at link time (sizes: docs/PERFORMANCE.md).
EMFLAGS_HOT = -O3 -msimd128
EMFLAGS_CORE = -Os -msimd128
EMFLAGS_REPORT = -Oz
EMFLAGS_LINK_BASE = -Oz -sMALLOC=emmalloc --no-entry -sSTANDALONE_WASM -sALLOW_MEMORY_GROWTH
EMFLAGS_LINK = $(EMFLAGS_LINK_BASE) -sEXPORTED_FUNCTIONS=$(EXPORTS)

# A fresh seed every run unless one is given; every randomized test prints it.
ROPE_TEST_SEED := $(or $(ROPE_TEST_SEED),$(shell od -An -N4 -tu4 /dev/urandom | tr -d ' '))
export ROPE_TEST_SEED

WEB_BUILT = web/gen/public_url.js web/vendor/inflate.js web/gen/rope_wasm.js web/gen/rope_consts.js web/gen/models.js web/vendor/chart.js web/ropescope.js web/gen/formulas.js \
            web/gen/version.js web/gen/methods.js web/gen/figure_names.js web/gen/figure_heads.js web/gen/figure_loaders.js \
            web/gen/figure_first.js web/style.min.css web/ropescope-embed.js web/embed/.built web/embed.html \
            web/gen/verify_wasm.js web/ropescope-verify.js web/gen/files_wasm.js web/split/.built
# The page's modules (web/src/, one folder a room), bundled into web/ropescope.js.
WEB_MODULES = $(wildcard web/src/*/*.js)
FUZZ_SECONDS ?= 6

.PHONY: all deps native wasm web test format lint test-unit test-math test-text test-asan test-fuzz fuzz-long test-mutants \
        test-diff test-cli test-js test-browser test-scaling test-fuzz-config test-explain test-nprandom \
        test-lesson test-verify test-reliability serve dist bench clean check

all: native web

native: build/ropescope build/librope.so

wasm: build/rope.wasm build/files.wasm

web: $(WEB_BUILT)

build:
	mkdir -p build

build/gen/post_rows.inc: c_src/lesson/post_numbers.txt tools/post_rows.awk
	mkdir -p build/gen
	awk -f tools/post_rows.awk $< > $@.tmp && mv $@.tmp $@

web/gen:
	mkdir -p $@

# Each C file is compiled once per set of flags, into build/obj/SET/ (the path under c_src/),
# and the binaries built with that set link the same objects: native (the CLI, the shared library
# and the unit tests; position-independent, for the library), asan (clang's ASan + UBSan: the
# tests' sanitized builds) and fuzz (libFuzzer's coverage, ASan + UBSan: every fuzzer). Each object
# depends on every header, as each binary did when it compiled its sources itself.
ALL_HDR = $(CORE_HDR) $(SCALING_HDR) $(CLI_HDR)
obj = $(patsubst c_src/%.c,build/obj/$(1)/%.o,$(2))
FUZZ_OBJ_FLAGS = $(STD) -g -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all $(WARN)
build/obj/native/%.o: c_src/%.c $(ALL_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(STD) $(CFLAGS) $(WARN) $(INC) -fPIC -c -o $@ $<
build/obj/asan/%.o: c_src/%.c $(ALL_HDR)
	@mkdir -p $(dir $@)
	$(CLANG) $(STD) -O1 -g $(SANITIZE) $(WARN) $(INC) -c -o $@ $<
build/obj/fuzz/%.o: c_src/%.c $(ALL_HDR)
	@mkdir -p $(dir $@)
	$(CLANG) $(FUZZ_OBJ_FLAGS) $(INC) -c -o $@ $<
# The CLI without its main(), for the fuzzers that call rope_cli_run themselves.
build/obj/fuzz/cli/main_nomain.o: c_src/cli/main.c $(ALL_HDR)
	@mkdir -p $(dir $@)
	$(CLANG) $(FUZZ_OBJ_FLAGS) -DROPE_CLI_NO_MAIN $(INC) -c -o $@ $<

build/ropescope: $(call obj,native,$(CLI_SRC) $(CORE_SRC) $(SCALING_SRC)) | build
	$(CC) $(CFLAGS) -o $@ $^ -lm

build/librope.so: $(call obj,native,$(CORE_SRC) $(SCALING_SRC)) | build
	$(CC) $(CFLAGS) -shared -o $@ $^ -lm

# The same library with PCG64's 128-bit arithmetic in two 64-bit halves, as a
# compiler without __int128 builds it (tests only).
build/librope_noint128.so: $(CORE_SRC) $(CORE_HDR) $(SCALING_SRC) $(SCALING_HDR) | build
	$(CC) $(STD) $(CFLAGS) $(WARN) $(INC) -DROPE_NP_NO_INT128 -shared -fPIC -o $@ $(CORE_SRC) $(SCALING_SRC) -lm

# The unit tests fail malloc on purpose through this wrapper (tests only).
TEST_LDFLAGS = -Wl,--wrap=malloc
build/test_rope: tests/c/test_rope.c tests/c/testlib.h $(call obj,native,$(CORE_SRC)) | build
	$(CC) $(STD) $(CFLAGS) $(WARN) $(INC) -o $@ $(filter-out %.h,$^) $(TEST_LDFLAGS) -lcmocka -lm

FUZZ_CFLAGS = $(STD) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all $(WARN)
# Three fuzz targets: the core (and report writer); the CLI's argv with no files (thousands of
# runs a second); the CLI's files (report pairs in a temp folder, --config files).
build/fuzz_rope: tests/fuzz/fuzz_rope.c $(call obj,fuzz,$(CORE_SRC)) | build
	$(CLANG) $(FUZZ_CFLAGS) $(INC) -o $@ $^ -lm

# The CLI is linked in without its main(): the fuzzers call rope_cli_run themselves.
FUZZ_CLI_OBJ = build/obj/fuzz/cli/main_nomain.o \
               $(call obj,fuzz,$(filter-out c_src/cli/main.c,$(CLI_SRC)) $(CORE_SRC) $(SCALING_SRC))
build/fuzz_cli build/fuzz_files: build/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_argv.h $(FUZZ_CLI_OBJ) | build
	$(CLANG) $(FUZZ_CFLAGS) $(INC) -o $@ $(filter-out %.h,$^) -lm

# The scaling math and the reader's C contract, under ASan + UBSan.
build/test_scaling: tests/c/test_scaling.c $(CORE_SRC) $(CORE_HDR) $(SCALING_SRC) $(SCALING_HDR) | build
	$(CC) $(STD) -O1 -g $(SANITIZE) $(WARN) $(INC) -o $@ tests/c/test_scaling.c $(CORE_SRC) $(SCALING_SRC) -lcmocka -lm

# The config reader under ASan + UBSan: random key/value sequences, and random text through
# rope_config_read_json as the CLI and the page read a file (and the JSON written parsed back).
build/fuzz_config: tests/fuzz/fuzz_config.c $(call obj,fuzz,$(CORE_SRC) $(SCALING_SRC)) | build
	$(CLANG) $(FUZZ_CFLAGS) $(INC) -o $@ $^ -lm

build/test_math: tests/c/test_math.c tests/c/testlib.h build/obj/native/core/rope_math.o | build
	$(CC) $(STD) $(CFLAGS) $(WARN) $(INC) -o $@ $(filter-out %.h,$^) -lm

# verify's text reader against strtod, bit for bit, natively and under ASan + UBSan.
build/test_text: tests/c/test_text.c tests/c/testlib.h $(call obj,native,$(VERIFY_SRC) $(CORE_SRC) $(SCALING_SRC)) | build
	$(CC) $(STD) $(CFLAGS) $(WARN) $(INC) -o $@ $(filter-out %.h,$^) -lm

build/test_text_asan: tests/c/test_text.c tests/c/testlib.h $(call obj,asan,$(VERIFY_SRC) $(CORE_SRC) $(SCALING_SRC)) | build
	$(CLANG) $(STD) -O1 -g $(SANITIZE) $(WARN) $(INC) -o $@ $(filter-out %.h,$^) -lm

# clang's UBSan also catches arithmetic on a NULL pointer (NULL + 0), which gcc's misses.
build/test_rope_asan: tests/c/test_rope.c tests/c/testlib.h $(call obj,asan,$(CORE_SRC)) | build
	$(CLANG) $(STD) -O1 -g $(SANITIZE) $(WARN) $(INC) -o $@ $(filter-out %.h,$^) $(TEST_LDFLAGS) -lcmocka -lm

build/test_explain: tests/c/test_explain.c $(call obj,native,$(CORE_SRC)) | build
	$(CC) $(STD) $(CFLAGS) $(WARN) $(INC) -o $@ $(filter-out %.h,$^) -lcmocka -lm

build/test_explain_asan: tests/c/test_explain.c $(call obj,asan,$(CORE_SRC)) | build
	$(CLANG) $(STD) -O1 -g $(SANITIZE) $(WARN) $(INC) -o $@ $(filter-out %.h,$^) -lcmocka -lm

build/wasm/%.o: c_src/%.c $(CORE_HDR) $(SCALING_HDR)
	mkdir -p $(dir $@)
	$(EMCC) $(STD) $(WARN) $(INC) $(EMFLAGS_CORE) -c -o $@ $<

build/wasm/core/batch.o build/wasm/core/rope_math.o: EMFLAGS_CORE = $(EMFLAGS_HOT)

# The report, the scaling math, the config reader and its writers are cold code.
build/wasm/report/%.o build/wasm/scaling/%.o build/wasm/core/parse.o: EMFLAGS_CORE = $(EMFLAGS_REPORT)
# One token of a few hundred draws per call: cold code too.
build/wasm/nprandom/%.o: EMFLAGS_CORE = $(EMFLAGS_REPORT)
# The lesson's functions are cold code, like the report; so are a port's formats and layouts.
build/wasm/lesson/%.o build/wasm/port/%.o: EMFLAGS_CORE = $(EMFLAGS_REPORT)

WASM_OBJ = $(patsubst c_src/%.c,build/wasm/%.o,$(CORE_SRC) $(SCALING_SRC))
# The lesson's module exports c_src/exports.txt only: the linker keeps what those reach, so the
# config reader (jansson, strtod's 128-bit long double), the scaling writers and the report
# writer, which it does not export, stay out of it.
build/rope.wasm: $(WASM_OBJ) c_src/exports.txt
	$(EMCC) $(EMFLAGS_LINK) -o $@ $(WASM_OBJ)

# The files module (web/src/core/files.js): the config reader, the scaling writers and the
# report writer with the core they call, exporting c_src/files_exports.txt. The page loads it
# only where a config is read or a file written (the long-context part, the checker, downloads).
build/files.wasm: EXPORTS = $(shell sed -e 's/^/_/' c_src/files_exports.txt | paste -sd, -)
build/files.wasm: $(WASM_OBJ) c_src/files_exports.txt
	$(EMCC) $(EMFLAGS_LINK) -o $@ $(WASM_OBJ)

# The page's `ropescope verify` is a module of its own, which the page loads only when the
# verify panel is used, so the page does not grow: run.c's steps, the readers and the checker
# with the core they call, exporting c_src/verify_exports.txt. Its comparison loop is hot.
# The objects are named, not a pattern: a pattern rule without a recipe adds no prerequisites,
# and page.o kept a job of run.h's former layout.
VERIFY_WASM_OWN = $(patsubst c_src/%.c,build/wasm/%.o,$(VERIFY_SRC) c_src/verify/page.c)
VERIFY_WASM_OBJ = $(WASM_OBJ) $(VERIFY_WASM_OWN)
$(VERIFY_WASM_OWN): c_src/verify/verify.h c_src/verify/run.h
build/wasm/verify/check.o: EMFLAGS_CORE = $(EMFLAGS_HOT)
build/verify.wasm: EXPORTS = $(shell sed -e 's/^/_/' c_src/verify_exports.txt | paste -sd, -)
build/verify.wasm: $(VERIFY_WASM_OBJ) c_src/verify_exports.txt
	$(EMCC) $(EMFLAGS_LINK) -o $@ $(VERIFY_WASM_OBJ)

# The wasm bytes inlined (deflated, base64), so importing rope.js needs no server and no fetch.
web/gen/rope_wasm.js: build/rope.wasm tools/pack.mjs | web/gen
	$(NODE) tools/pack.mjs wasm $< $@

# The lesson's module cut to each view, for the one-view embed scripts: the exports the view's
# figure calls (found by running it and by reading its files) and those every view may call
# (tools/view_wasm.mjs). build/views/ holds the modules, web/gen/view_wasm/<view>.js each packed.
web/gen/view_wasm/.built: tools/view_wasm.mjs tools/pack.mjs $(WASM_OBJ) c_src/exports.txt $(WEB_MODULES) \
                          web/gen/rope_wasm.js web/gen/rope_consts.js web/gen/figure_names.js web/gen/models.js \
                          web/gen/files_wasm.js web/vendor/inflate.js
	$(NODE) tools/view_wasm.mjs web/gen/view_wasm $(EMCC) $(EMFLAGS_LINK_BASE) -- $(WASM_OBJ)
	touch $@

web/gen/verify_wasm.js: build/verify.wasm tools/pack.mjs | web/gen
	$(NODE) tools/pack.mjs wasm $< $@

web/gen/files_wasm.js: build/files.wasm tools/pack.mjs | web/gen
	$(NODE) tools/pack.mjs wasm $< $@

# The bundles whose code imports web/src/core/files.js carry its bytes.
web/ropescope.js web/ropescope-embed.js web/embed/.built web/embed.html: web/gen/files_wasm.js

# fflate's synchronous inflate (MIT) as a plain ES module, for web/src/core/packed.js; its set-up runs
# at the first call (the page rarely calls it before the first chart).
web/vendor/inflate.js: tools/vendor_inflate.mjs node_modules/chart.js/dist/chart.umd.js package-lock.json
	mkdir -p web/vendor
	$(NODE) tools/vendor_inflate.mjs $@

# TeX rendered to MathML at build time (temml), so the page loads no math library
# or font. The chart.js prerequisite is where npm ci installs node_modules.
web/gen/formulas.js: tools/formulas.mjs tools/pack.mjs node_modules/chart.js/dist/chart.umd.js | web/gen
	$(NODE) tools/formulas.mjs $@

# Every numeric #define ROPE_* of the public headers, for the JS side (limits, codes, defaults).
# The lesson's and the port's headers name the slots of flat outputs: their constants are grouped too.
CONST_HDR = c_src/core/rope.h c_src/report/report.h c_src/scaling/config.h c_src/explain/explain.h
SLOT_HDR = c_src/lesson/lesson.h c_src/port/port.h
web/gen/rope_consts.js: $(CONST_HDR) $(SLOT_HDR) tools/consts.mjs | web/gen
	$(NODE) tools/consts.mjs $@ $(CONST_HDR) --groups $(SLOT_HDR)

# The scaling methods' table (c_src/scaling/methods.c) as a module: the page's menu, each
# method's parameters (config key, default) and comparison lines. A native program prints it
# from the table itself, so no parser reads C.
build/methods_js: tools/methods_js.c c_src/scaling/methods.c $(SCALING_HDR) $(CORE_HDR) | build
	$(CC) $(STD) $(CFLAGS) $(WARN) $(INC) -DROPE_METHODS_PAGE -o $@ tools/methods_js.c c_src/scaling/methods.c -lm

web/gen/methods.js: build/methods_js | web/gen
	build/methods_js > $@.tmp && mv $@.tmp $@

# The model configs as a module: the page cannot fetch JSON from file://.
web/gen/models.js web/gen/model_names.js &: $(wildcard web/models/*.json) tools/models.mjs tools/pack.mjs | web/gen
	$(NODE) tools/models.mjs web/gen/models.js $(wildcard web/models/*.json)

# Where dist/ is published: the element's credit when it is imported (a bundler, npm) names
# ropescope.html there, and make dist's static oEmbed answers name its files. By default the
# npm package on unpkg, which holds ropescope.html once published; set it to where you serve
# dist/ (ending in /):
#   make dist PUBLIC_URL=https://example.org/rs/   (or the environment's ROPESCOPE_PUBLIC_URL)
VERSION := $(shell sed -n 's/^  "version": "\(.*\)",$$/\1/p' package.json)
PUBLIC_URL ?= $(or $(ROPESCOPE_PUBLIC_URL),https://unpkg.com/ropescope@$(VERSION)/)
export ROPESCOPE_PUBLIC_URL := $(PUBLIC_URL)
web/gen/public_url.js: FORCE | web/gen
	@$(NODE) tools/public_url.mjs $@ '$(PUBLIC_URL)'
FORCE:

# The release's version (package.json): the embed snippets name dist/v<version>/.
web/gen/figure_names.js: web/src/figures/index.js tools/figure_names.mjs | web/gen
	$(NODE) tools/figure_names.mjs $@ $<

# The figures' heads (what the page shows of a figure before its code loads) and one import()
# per figure, from the figures' table, which this evaluates in Node.
web/gen/figure_heads.js web/gen/figure_loaders.js web/gen/figure_first.js &: tools/figure_heads.mjs $(WEB_MODULES) web/gen/figure_names.js \
                        web/gen/version.js web/gen/rope_wasm.js web/gen/rope_consts.js web/gen/formulas.js web/gen/models.js \
                        web/gen/methods.js web/gen/files_wasm.js web/gen/public_url.js web/vendor/inflate.js | web/gen
	$(NODE) tools/figure_heads.mjs web/gen/figure_heads.js web/gen/figure_loaders.js web/gen/figure_first.js

web/gen/version.js: package.json | web/gen
	$(NODE) -e 'const { version } = JSON.parse(require("fs").readFileSync("package.json", "utf8")); require("fs").writeFileSync("$@", "// Generated from package.json by make.\nexport const VERSION = " + JSON.stringify(version) + ";\n")'

# The page's script: app.js and everything it imports (the wasm inlined), in one file.
web/ropescope.js: $(WEB_MODULES) web/gen/version.js web/gen/rope_wasm.js web/gen/rope_consts.js web/gen/formulas.js web/gen/models.js \
                  web/gen/methods.js web/gen/figure_names.js web/gen/figure_heads.js web/gen/figure_loaders.js web/gen/figure_first.js web/vendor/inflate.js
	$(BIN)/esbuild web/src/page/app.js --bundle --format=iife --minify --target=es2020 \
	  --legal-comments=none --log-level=warning --outfile=$@

# The same modules split (tools/split_page.mjs): what web/index.html loads when served (make
# serve), the entry and shared code first and each figure's code as the reader nears it.
# web/ropescope.js above is the one-script form, for the page opened from disk (make dist).
web/split/.built: tools/split_page.mjs tools/split.mjs tools/element_build.mjs $(WEB_MODULES) web/gen/version.js web/gen/rope_wasm.js web/gen/rope_consts.js \
                  web/gen/formulas.js web/gen/models.js web/gen/methods.js web/gen/figure_names.js web/gen/figure_heads.js \
                  web/gen/figure_loaders.js web/gen/figure_first.js web/gen/files_wasm.js web/vendor/inflate.js
	$(NODE) tools/split_page.mjs web/src/page/app.js web/split
	touch $@

# The verify panel (web/src/verify/, its UI, chart and module, the verify wasm inside): a classic
# script the page loads at the panel's first use, so the page itself does not grow and the
# script also loads from file://.
web/ropescope-verify.js: $(WEB_MODULES) web/gen/verify_wasm.js web/vendor/inflate.js
	$(BIN)/esbuild web/src/verify/panel.js --bundle --format=iife --minify --target=es2020 \
	  --legal-comments=none --log-level=warning --outfile=$@

# The <rope-scope> element for posts (tools/split_element.mjs): web/ropescope-embed.js, the one
# script a post names (what reads the attributes and holds each element's place, and a loader),
# and web/ropescope-embed/ beside it, the chunks it fetches as an element needs them: what it
# draws with (Chart.js from npm, only the parts tools/chart_parts.mjs registers, the wasm,
# style.css) and each view's figure. make dist releases both (dist/ropescope-embed.js, within its
# budget, and dist/ropescope-embed/).
ELEMENT_DEPS = $(WEB_MODULES) web/style.css tools/chart_parts.mjs tools/element_build.mjs tools/split.mjs web/gen/public_url.js \
               web/gen/version.js web/gen/rope_wasm.js web/gen/rope_consts.js web/gen/formulas.js \
               web/gen/models.js web/gen/methods.js web/gen/figure_names.js web/gen/figure_heads.js \
               web/gen/figure_loaders.js web/vendor/inflate.js node_modules/chart.js/dist/chart.umd.js
web/ropescope-embed.js: tools/split_element.mjs $(ELEMENT_DEPS)
	$(NODE) tools/split_element.mjs web/src/element/element.js $@

# One script per view for the one-view embed documents: the element with that view's figure
# alone and the Chart.js parts it uses (tools/chart_views.mjs), in one file (tools/embed_views.mjs).
web/embed/.built: tools/embed_views.mjs tools/chart_views.mjs $(ELEMENT_DEPS) web/gen/view_wasm/.built
	$(NODE) tools/embed_views.mjs web/embed
	touch web/embed/.built

# The embed document the iframe snippets name (web/src/element/frame.js), with every view's
# picture for readers without JavaScript (and web/embed-pictures.css, which shows the one the
# address names).
web/embed.html: tools/embed_page.mjs $(WEB_MODULES) web/gen/rope_wasm.js web/gen/rope_consts.js web/gen/formulas.js \
                web/gen/models.js web/gen/methods.js web/gen/figure_names.js web/gen/figure_heads.js web/gen/version.js web/vendor/inflate.js
	$(NODE) tools/embed_page.mjs $@

# The stylesheet the page loads: web/style.css (the source) minified, about a fifth smaller.
web/style.min.css: web/style.css
	$(BIN)/esbuild $< --minify --log-level=warning --outfile=$@

# Chart.js with only the controllers, elements, scales and plugins the figures use. Its first
# line asks V8 to compile every function while the file streams in (off the main thread): the
# first chart runs most of them, and compiling them one by one on first call was ~20 ms of it.
# Inlined (dist/ropescope.html) it is compiled on the main thread: tools/inline.mjs
# drops the line there.
web/vendor/chart.js: tools/chart_entry.mjs tools/chart_parts.mjs node_modules/chart.js/dist/chart.umd.js package-lock.json
	mkdir -p web/vendor
	$(BIN)/esbuild $< --bundle --format=iife --minify --target=es2020 \
	  --legal-comments=eof --banner:js="//# allFunctionsCalledOnLoad" --log-level=warning --outfile=$@

node_modules/chart.js/dist/chart.umd.js: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

# Installs what a fresh Debian 12 machine lacks: apt-get as root, else the exact command.
deps:
	@missing=""; \
	command -v $(EMCC) >/dev/null 2>&1 || missing="$$missing emscripten"; \
	[ -x /usr/bin/chromium ] || missing="$$missing chromium"; \
	[ -x /usr/bin/chromium-headless-shell ] || missing="$$missing chromium-headless-shell"; \
	[ -f /usr/include/cmocka.h ] || missing="$$missing libcmocka-dev"; \
	command -v $(CLANG) >/dev/null 2>&1 || missing="$$missing clang"; \
	command -v $(CLANG_FORMAT) >/dev/null 2>&1 || missing="$$missing clang-format"; \
	[ -f "$$($(CLANG) -print-file-name=libclang_rt.fuzzer-x86_64.a 2>/dev/null)" ] || missing="$$missing libclang-rt-14-dev"; \
	command -v $(NODE) >/dev/null 2>&1 || missing="$$missing nodejs npm"; \
	command -v $(PYTHON) >/dev/null 2>&1 || missing="$$missing python3"; \
	$(NUMPY_PYTHON) -c 'import numpy' >/dev/null 2>&1 || missing="$$missing python3-numpy"; \
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

# make test: the build and every binary the suites run, built in parallel; then the suites
# that need no browser, in parallel (each one's output kept together); then the browser suite,
# alone, since it times nothing but waits on pages a busy CPU slows. Each phase prints its time.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
TEST_BINARIES = build/test_rope build/test_math build/test_text build/test_text_asan build/test_rope_asan \
                build/test_explain build/test_explain_asan build/test_scaling build/librope_noint128.so \
                $(addprefix build/,$(FUZZ_TARGETS)) build/fuzz_verify build/fuzz_config build/fuzz-config-seeds/.made
TEST_SUITES = test-unit test-math test-text test-asan test-fuzz test-mutants test-diff test-explain \
              test-nprandom test-lesson test-cli test-reliability test-js test-scaling test-fuzz-config test-verify
test: deps
	@echo "ROPE_TEST_SEED=$(ROPE_TEST_SEED)  (set it to reproduce this run)"
	$(MAKE) --no-print-directory lint
	@start=$$(date +%s); $(MAKE) --no-print-directory -j$(JOBS) all dist $(TEST_BINARIES) && \
	  echo "make test: built in $$(( $$(date +%s) - start )) s"
	@start=$$(date +%s); $(MAKE) --no-print-directory -j$(JOBS) --output-sync=target $(TEST_SUITES) && \
	  echo "make test: $(words $(TEST_SUITES)) suites without a browser passed in $$(( $$(date +%s) - start )) s"
	@start=$$(date +%s); $(MAKE) --no-print-directory test-browser && \
	  echo "make test: the browser suite passed in $$(( $$(date +%s) - start )) s"
	@echo "make test: all suites passed (ROPE_TEST_SEED=$(ROPE_TEST_SEED))"

# The quick loop, after every change (at most 90 s on a 2-core machine): the C unit tests, the
# JavaScript unit tests (with the reference cases they read) and one browser smoke test of the
# page and of an embed. `make test` runs everything.
check: all
	@echo "ROPE_TEST_SEED=$(ROPE_TEST_SEED)  (set it to reproduce this run)"
	$(MAKE) --no-print-directory -j$(JOBS) --output-sync=target test-unit test-math test-text test-js
	$(NODE) --test tests/browser/smoke.test.mjs
	@echo "make check: passed (ROPE_TEST_SEED=$(ROPE_TEST_SEED))"

test-unit: build/test_rope
	build/test_rope

test-math: build/test_math
	build/test_math

test-text: build/test_text build/test_text_asan
	build/test_text
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 build/test_text_asan

test-asan: build/test_rope_asan
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 build/test_rope_asan

# Random bytes as every function's arguments, as the CLI's argv and as its files, under
# ASan + UBSan, FUZZ_SECONDS per target (tests/fuzz/run.sh prints each target's runs, execs/s
# and coverage: edges "cov", features "ft"). The committed seeds in tests/fuzz/corpus are read
# by all three; what a run finds is written under build/, never into the repository.
FUZZ_TARGETS = fuzz_rope fuzz_cli fuzz_files
test-fuzz: $(addprefix build/,$(FUZZ_TARGETS))
	@for t in $(FUZZ_TARGETS); do sh tests/fuzz/run.sh $$t $(FUZZ_SECONDS) tests/fuzz/corpus || exit 1; done

# Every fuzzer for ten minutes (FUZZ_SECONDS=N to change): the three above, verify's readers
# (fuzz_verify: its mutator edits the binary formats' size and offset fields and the numbers of
# their JSON headers; seeds of every format in tests/fuzz/verify-corpus) and the config reader
# (fuzz_config: seeds of every real config in the tree, and a dictionary of the keys and names
# a config holds, tests/fuzz/config.dict: 2% more edges in two minutes than without, where a
# mutator that parsed and rewrote the configs found 20% fewer).
# `make -j2 fuzz-long` runs two at a time.
FUZZ_LONG = fuzz_rope fuzz_cli fuzz_files fuzz_verify fuzz_config
.PHONY: $(addprefix fuzz-long-,$(FUZZ_LONG))
fuzz-long: FUZZ_SECONDS = 600
fuzz-long: $(addprefix fuzz-long-,$(FUZZ_LONG))
	@echo "fuzz-long: $(FUZZ_LONG) ran $(FUZZ_SECONDS) s each with no finding"
$(addprefix fuzz-long-,$(FUZZ_TARGETS)): fuzz-long-%: build/%
	@sh tests/fuzz/run.sh $* $(FUZZ_SECONDS) tests/fuzz/corpus
fuzz-long-fuzz_verify: build/fuzz_verify
	@sh tests/fuzz/run.sh fuzz_verify $(FUZZ_SECONDS) tests/fuzz/verify-corpus
fuzz-long-fuzz_config: build/fuzz_config build/fuzz-config-seeds/.made
	@sh tests/fuzz/run.sh fuzz_config $(FUZZ_SECONDS) build/fuzz-config-seeds -dict=tests/fuzz/config.dict

# The config fuzzer's seeds: every real config, as a text input (a leading '0').
build/fuzz-config-seeds/.made: $(wildcard web/models/*.json tests/data/configs/*.json) | build
	mkdir -p build/fuzz-config-seeds
	@for f in $(filter %.json,$^); do { printf 0; cat $$f; } > build/fuzz-config-seeds/$$(basename $$f).seed; done
	touch $@

test-mutants: build/gen/post_rows.inc
	CORE_SRC="$(CORE_SRC)" INC="$(INC)" STD="$(STD)" TEST_LDFLAGS="$(TEST_LDFLAGS)" sh tests/c/mutants.sh

test-diff: build/librope.so
	$(PYTHON) tests/diff/gen_cases.py --seed $(ROPE_TEST_SEED) --out build/cases.json
	$(PYTHON) tests/diff/diff_native.py build/cases.json --dump build/native_results.json

# The explainer functions against tests/ref/ref_explain.py; the native results feed
# the wasm test's bit-for-bit comparison (tests/js/explain.test.mjs).
test-explain: build/librope.so build/test_explain build/test_explain_asan
	build/test_explain
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 build/test_explain_asan
	$(PYTHON) tests/ref/ref_explain.py --seed $(ROPE_TEST_SEED) --out build/explain_cases.json
	$(PYTHON) tests/diff/diff_explain.py build/explain_cases.json --dump build/explain_native.json

# NumPy's default_rng(seed).normal() in C against NumPy itself, bit for bit: native
# (with and without __int128), the wasm module and web/src/core/rope.js's bindings; the blog's
# 512-dimension example.
# The lesson's functions against tests/ref/ref_lesson.py (random inputs, the post's
# numbers), native and wasm.
test-lesson: build/librope.so $(WEB_BUILT)
	$(PYTHON) tests/ref/ref_lesson.py --seed $(ROPE_TEST_SEED) --out build/lesson_cases.json
	$(PYTHON) tests/diff/diff_lesson.py build/lesson_cases.json --dump build/lesson_native.json
	$(NODE) --test tests/js/lesson.test.mjs tests/js/lesson_bind.test.mjs

test-nprandom: build/librope.so build/librope_noint128.so build/rope.wasm $(WEB_BUILT)
	$(NUMPY_PYTHON) tests/diff/test_nprandom.py --lib build/librope.so --lib build/librope_noint128.so
	ROPE_NUMPY_PYTHON=$(NUMPY_PYTHON) $(NODE) --test tests/js/nprandom.test.mjs

test-cli: build/ropescope
	$(PYTHON) tests/cli/test_cli.py

# `ropescope verify` on dumps tests/diff/gen_dumps.py writes fresh each run (numpy: Debian's python3),
# the page's verify module on the same dumps against the CLI, then random bytes as dump files
# through its readers, checker and diagnosis under ASan + UBSan.
FUZZ_VERIFY_SECONDS ?= 5
test-verify: build/ropescope build/fuzz_verify web/gen/verify_wasm.js web/vendor/inflate.js
	$(NUMPY_PYTHON) tests/cli/test_verify.py
	$(NODE) --test tests/js/verify_page.test.mjs
	@sh tests/fuzz/run.sh fuzz_verify $(FUZZ_VERIFY_SECONDS) tests/fuzz/verify-corpus

build/fuzz_verify: tests/fuzz/fuzz_verify.c $(call obj,fuzz,$(VERIFY_SRC) $(CORE_SRC) $(SCALING_SRC)) | build
	$(CLANG) $(FUZZ_CFLAGS) $(INC) -o $@ $^ -lm

# Hostile files, messages and kills at every system call of the report's writes (strace).
test-reliability: build/ropescope
	$(PYTHON) tests/cli/test_reliability.py

# Long context: the reference numbers of web/models/, native, CLI and wasm against
# tests/ref/ref_scaling.py on fresh random configs, and bad configs at every layer.
test-scaling: build/test_scaling build/librope.so build/ropescope $(WEB_BUILT)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 build/test_scaling
	$(PYTHON) tests/diff/diff_scaling.py --seed $(ROPE_TEST_SEED) --cases build/scaling_cases.json
	$(PYTHON) tests/cli/test_scaling_cli.py
	SCALING_CASES=build/scaling_cases.json SCALING_BAD=build/scaling_bad.json \
	  $(NODE) --test tests/js/scaling.test.mjs tests/js/hostile.test.mjs

FUZZ_CONFIG_SECONDS ?= 5
test-fuzz-config: build/fuzz_config build/fuzz-config-seeds/.made
	@sh tests/fuzz/run.sh fuzz_config $(FUZZ_CONFIG_SECONDS) build/fuzz-config-seeds -dict=tests/fuzz/config.dict

# test-explain writes the explainer cases (reference and native) that tests/js/explain reads.
test-js: $(WEB_BUILT) test-diff test-explain test-lesson
	$(NODE) --test $(filter-out tests/js/scaling.test.mjs tests/js/hostile.test.mjs tests/js/nprandom.test.mjs tests/js/lesson.test.mjs tests/js/lesson_bind.test.mjs tests/js/verify_page.test.mjs,$(wildcard tests/js/*.test.mjs))

# Every browser test file, each with a Chromium of its own, as many files at a time as there are CPUs
# (ROPE_TEST_JOBS=N to choose; tools/test_browser.mjs FILE... runs some).
test-browser: all dist
	$(NODE) tools/test_browser.mjs

# One style for the tree: .clang-format for C, biome.json (Biome: formatter and linter in one
# npm package) for the JavaScript. `make format` rewrites; `make lint` only checks.
C_FILES = $(wildcard c_src/*/*.c c_src/*/*.h tests/c/*.c tests/c/*.h tests/fuzz/*.c tests/fuzz/*.h tools/*.c)
format:
	$(CLANG_FORMAT) -i $(C_FILES)
	$(BIN)/biome check --write

lint:
	$(CLANG_FORMAT) --dry-run -Werror $(C_FILES)
	$(BIN)/biome check
	@echo "lint: C and JavaScript clean"

serve: deps
	$(MAKE) --no-print-directory all
	@echo "ropescope explorer: http://127.0.0.1:8000/ (127.0.0.1 only; the page's CSP sent as a header)"
	$(NODE) tools/serve.mjs web 8000

dist: $(WEB_BUILT)
	$(NODE) tools/dist.mjs

# How long the slowest call at ROPE_MAX_WORK takes (docs/SPEC.md, "Limits").
build/bench_limits: tools/bench_limits.c $(call obj,native,$(CORE_SRC)) | build
	$(CC) $(STD) $(CFLAGS) $(WARN) $(INC) -o $@ $^ -lm

bench: all dist build/bench_limits
	sh tools/bench_limits.sh build/bench_limits build/ropescope
	sh tools/bench_scan.sh build/ropescope
	sh tools/bench_verify.sh build/ropescope $(NUMPY_PYTHON)
	sh tools/bench_inputs.sh build/ropescope $(NUMPY_PYTHON)
	$(NODE) tools/bench.mjs
	$(NODE) tools/bench_embed.mjs
	$(NODE) tools/bench_explain.mjs

clean:
	rm -rf build dist web/gen web/split web/ropescope.js web/ropescope-embed.js web/ropescope-embed web/ropescope-verify.js web/embed.html web/embed web/embed-pictures.css web/style.min.css web/vendor
