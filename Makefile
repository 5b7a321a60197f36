# slicelab — `make help` lists the targets.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
JOBS   ?= $(shell nproc 2>/dev/null || echo 2)
# One pytest worker per core already: a BLAS thread pool per worker on top of it makes
# small matrix products (the bootstrap's) up to 20 times slower.
SERIAL_BLAS := OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1

.DEFAULT_GOAL := help
.PHONY: help install report quick demo bench validate lab test lint fmt clean

help: ## List every target with one line
	@grep -E '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*## "}; {printf "  %-10s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

install: $(STAMP) ## Create .venv and install slicelab with its dev tools

STUDIES := studies/nyslice-balance.toml studies/pieceocake-balance.toml studies/pizzatheory-balance.toml studies/horno-balance.toml

REPORTS := $(patsubst studies/%.toml,reports/%.pdf,$(STUDIES))

report: $(STAMP) ## Compile the kernels (a game per core), run the default balance studies (resume) and write reports/nyslice-balance.pdf, pieceocake-, pizzatheory- and horno-balance.pdf
	$(BIN)/slicelab warm $(STUDIES) --jobs $(JOBS)
	for s in $(STUDIES); do $(BIN)/slicelab study $$s --jobs $(JOBS) || exit 1; done
	@# A report computes on one core: the four are written $(JOBS) at a time, the largest first.
	$(MAKE) --no-print-directory -j $(JOBS) -O $(REPORTS)

# Each report from its finished dataset (make report plays the games first).
reports/%.pdf: FORCE
	$(BIN)/slicelab report data/$* --out $@

.PHONY: FORCE
FORCE:

quick: $(STAMP) ## Run the four balance studies at their quick size into data/<study>-quick/ (minutes, compiles included), small datasets the notebooks open (README, "Balance analyses, notebooks and the report")
	$(BIN)/slicelab warm $(STUDIES) --jobs $(JOBS)
	for s in $(STUDIES); do $(BIN)/slicelab study $$s --size quick --jobs $(JOBS) || exit 1; done

demo: $(STAMP) ## Play a batch of New York Slice games at every player count and print a summary (seconds; a fresh clone first compiles the game's kernel, about 4 minutes, and says so)
	$(BIN)/slicelab demo nyslice --games 20000 --seed 1

bench: $(STAMP) ## Throughput benchmarks (kernel vs reference, workers, Parquet, memory, 1M games)
	$(BIN)/python benchmarks/bench_simulator.py
	$(BIN)/python benchmarks/bench_pieceocake.py
	$(BIN)/python benchmarks/bench_pizzatheory.py
	$(BIN)/python benchmarks/bench_horno.py

validate: $(STAMP) ## Generated data files and rule options at length (thousands per game) on kernels compiled with bounds checking, and the statistics' coverage simulations at 2,000 replications
	NUMBA_BOUNDSCHECK=1 NUMBA_CACHE_DIR=$(VENV)/numba-boundscheck SLICELAB_VALIDATE=1 \
		$(SERIAL_BLAS) $(BIN)/python -m pytest -q -n $(JOBS) -m "generated or coverage"

lab: $(STAMP) ## Open JupyterLab on notebooks/ (installs jupyterlab on first use)
	$(BIN)/python -c "import jupyterlab" 2>/dev/null || $(BIN)/python -m pip install --quiet -e '.[lab]'
	$(BIN)/jupyter lab notebooks/

test: $(STAMP) ## Check style (ruff check, ruff format --check) and the layer contracts (import-linter), compile the kernels once, run the tests on every core
	$(BIN)/ruff check --quiet .
	$(BIN)/ruff format --check --quiet .
	$(BIN)/lint-imports
	$(BIN)/python tests/warm_kernels.py
	$(SERIAL_BLAS) $(BIN)/python -m pytest -q -n $(JOBS) --dist loadgroup

lint: $(STAMP) ## ruff check and format check
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

fmt: $(STAMP) ## Apply ruff's fixes and formatting
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

clean: ## Remove the virtual environment and caches
	rm -rf $(VENV) .pytest_cache .ruff_cache build *.egg-info
