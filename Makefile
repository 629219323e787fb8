# gpulike: PGXS build.
#
#   make                build gpulike.so (CUDA engine too when nvcc is found)
#   make NO_CUDA=1      CPU engine only
#   make install
#   make test           everything: deps, build, install, throwaway cluster,
#                       pg_regress + pgTAP + unit tests (test/run)
#   make demo           sample data and a timed comparison (test/demo)

MODULE_big = gpulike
EXTENSION = gpulike
# The version is the control file's default_version.  DATA ships the first
# version's script and the updates from it, as contrib modules do: CREATE
# EXTENSION runs them in turn.
EXTVERSION = $(shell sed -n "s/^default_version = '\(.*\)'/\1/p" $(GL_SRCDIR)/gpulike.control)
DATA = $(call gl_sources,gpulike--*.sql)
PGFILEDESC = "gpulike - LIKE and regex predicates on the GPU"


# Every C file under src/ belongs to the module; each room is a directory.
# Paths are taken relative to this Makefile so VPATH builds work:
#   mkdir /tmp/b && cd /tmp/b && make -f /path/to/gpulike/Makefile VPATH=/path/to/gpulike
GL_SRCDIR := $(patsubst %/,%,$(dir $(abspath $(firstword $(MAKEFILE_LIST)))))
gl_sources = $(sort $(patsubst $(GL_SRCDIR)/%,%,$(wildcard $(addprefix $(GL_SRCDIR)/,$(1)))))
SRCS := $(call gl_sources,src/*.c src/*/*.c)
OBJS = $(SRCS:.c=.o)

REGRESS = $(basename $(notdir $(call gl_sources,sql/*.sql)))
REGRESS_OPTS = --load-extension=gpulike

PG_CPPFLAGS = -I$(GL_SRCDIR)/src -I$(GL_SRCDIR)/cuda -pthread
SHLIB_LINK = -pthread

# Bitcode for JIT inlining would need clang and does not cover CUDA objects;
# gpulike's functions are not worth inlining into JIT-compiled expressions.
override with_llvm := no

# ---------------------------------------------------------------- CUDA
# nvcc is looked for on PATH, then in /usr/local/cuda.  The CUDA objects are
# linked as extra objects (not OBJS), so PGXS's rules for C never see them.
CUDA_HOME ?= /usr/local/cuda
ifneq ($(NO_CUDA),1)
NVCC ?= $(or $(shell command -v nvcc 2>/dev/null),$(wildcard $(CUDA_HOME)/bin/nvcc))
endif
# Every .cu under cuda/ is the engine's (its test programs: test/kernels).
CUDA_SRCS := $(call gl_sources,cuda/*.cu)
CUDA_OBJS = $(CUDA_SRCS:.cu=.o)
include $(GL_SRCDIR)/cuda/archs.mk
NVCC_FLAGS = -O3 -std=c++17 -Xcompiler -fPIC -I$(GL_SRCDIR)/src -I$(GL_SRCDIR)/cuda \
	$(CUDA_GENCODE) -lineinfo
# The engine's program preparation (src/kernel_prep): C++ with no CUDA in
# it, built by the system compiler and linked, like the CUDA objects, only
# into the CUDA engine (its tests: test/unit/prep).
PREP_SRCS := $(call gl_sources,src/kernel_prep/*.cc)
PREP_OBJS = $(PREP_SRCS:.cc=.o)
PREP_CXXFLAGS = -std=c++17 -fPIC -O2 -Wall -pthread -I$(GL_SRCDIR)/src

# Said once per build, not again by "make install".
gl_quiet_goals = install installcheck clean dist
ifneq ($(NVCC),)
PG_CPPFLAGS += -DGPULIKE_HAVE_CUDA
SHLIB_LINK += $(CUDA_OBJS) $(PREP_OBJS) -L$(CUDA_HOME)/lib64 -lcudart_static -lrt -ldl -lstdc++
EXTRA_CLEAN += $(CUDA_OBJS) $(PREP_OBJS)
ifeq ($(filter $(gl_quiet_goals),$(MAKECMDGOALS)),)
$(info gpulike: CUDA engine built with $(NVCC); whether a GPU is used is decided at server start)
endif
else
ifeq ($(filter $(gl_quiet_goals),$(MAKECMDGOALS)),)
$(info gpulike: CPU engine only (nvcc not found, or NO_CUDA=1))
endif
endif

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

ifneq ($(NVCC),)
$(shlib): $(CUDA_OBJS) $(PREP_OBJS)

cuda/%.o: cuda/%.cu $(wildcard $(GL_SRCDIR)/cuda/*.h $(GL_SRCDIR)/cuda/*.cuh $(GL_SRCDIR)/src/*/*.h) | gl_objdirs
	$(NVCC) $(NVCC_FLAGS) -c $< -o $@

src/kernel_prep/%.o: src/kernel_prep/%.cc $(wildcard $(GL_SRCDIR)/src/*/*.h) | gl_objdirs
	$(CXX) $(PREP_CXXFLAGS) -c $< -o $@
endif

# Objects are rebuilt when any header changes: headers are few and shared.
$(OBJS): $(wildcard $(GL_SRCDIR)/src/*.h $(GL_SRCDIR)/src/*/*.h $(GL_SRCDIR)/cuda/*.h) | gl_objdirs

.PHONY: gl_objdirs
gl_objdirs:
	@mkdir -p $(sort $(dir $(OBJS) $(CUDA_OBJS) $(PREP_OBJS)))

# A source archive for PGXN: gpulike-<version>.zip of the committed tree.
.PHONY: dist
dist:
	@grep -q '"version": "$(EXTVERSION)' $(GL_SRCDIR)/META.json || \
		{ echo "META.json does not give version $(EXTVERSION)" >&2; exit 1; }
	git -C $(GL_SRCDIR) archive --format zip --prefix=gpulike-$(EXTVERSION)/ \
		-o $(CURDIR)/gpulike-$(EXTVERSION).zip HEAD

.PHONY: test demo
test:
	bash $(GL_SRCDIR)/test/run

demo:
	bash $(GL_SRCDIR)/test/demo
