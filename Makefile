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
DATA = gpulike--1.0.sql
PGFILEDESC = "gpulike - LIKE and regex predicates on the GPU"

# Every C file under src/ belongs to the module; each room is a directory.
SRCS := $(sort $(wildcard src/*.c src/*/*.c))
OBJS = $(SRCS:.c=.o)

REGRESS = $(basename $(notdir $(sort $(wildcard sql/*.sql))))
REGRESS_OPTS = --inputdir=. --load-extension=gpulike

PG_CPPFLAGS = -I$(srcdir)/src -I$(srcdir)/cuda -pthread
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
CUDA_SRCS := $(filter-out cuda/kernel_test.cu cuda/kernel_bench.cu,$(sort $(wildcard cuda/*.cu)))
CUDA_OBJS = $(CUDA_SRCS:.cu=.o)
# sm_90 machine code for the H200/H100, PTX so newer GPUs can JIT it.
NVCC_FLAGS = -O3 -std=c++17 -Xcompiler -fPIC -I$(srcdir)/src -I$(srcdir)/cuda \
	-gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90 \
	-lineinfo

ifneq ($(NVCC),)
PG_CPPFLAGS += -DGPULIKE_HAVE_CUDA
SHLIB_LINK += $(CUDA_OBJS) -L$(CUDA_HOME)/lib64 -lcudart_static -lrt -ldl -lstdc++
EXTRA_CLEAN += $(CUDA_OBJS)
$(info gpulike: building the CUDA engine with $(NVCC))
else
$(info gpulike: nvcc not found (or NO_CUDA=1): building the CPU engine only)
endif

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

ifneq ($(NVCC),)
$(shlib): $(CUDA_OBJS)

cuda/%.o: cuda/%.cu $(wildcard cuda/*.h cuda/*.cuh src/pattern/program.h src/column/column.h)
	$(NVCC) $(NVCC_FLAGS) -c $< -o $@
endif

# Objects are rebuilt when any header changes: headers are few and shared.
$(OBJS): $(wildcard src/*.h src/*/*.h cuda/*.h)

.PHONY: test demo unit kernel-test
test:
	bash test/run

demo:
	bash test/demo

unit:
	$(MAKE) -C test/unit

kernel-test:
	$(MAKE) -C cuda -f Makefile.kernels
