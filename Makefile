# Two commands do everything: `make book` and `make test`. Both create .venv if it is missing.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SET ?= paper
export PYDEVD_DISABLE_FILE_VALIDATION := 1
# Two processes share the two cores in both targets; spinning OpenMP threads made the MLP 6x slower
# side by side. Sleeping threads give the same results.
export OMP_WAIT_POLICY ?= PASSIVE

.PHONY: book test venv run html sync lock clean bench sysdeps pdf

$(STAMP): requirements.txt pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
# jsonschema imports rfc3987-syntax if present (an optional extra pulled in by jupyter), compiling 38 grammars:
# 1.7 s of CPU in every kernel that imports nbformat (myst_nb's glue), for IRI checks nothing here makes
	$(BIN)/python -m pip uninstall --quiet --yes rfc3987-syntax
	$(BIN)/python -m pip install --quiet --no-deps -e .
	$(BIN)/python -m ipykernel install --prefix $(VENV) --name python3 --display-name "Python 3" >/dev/null
	touch $(STAMP)

venv: $(STAMP)

## system packages for the browser test and book-shots (Debian, as root): chromium, its driver, pdftoppm
sysdeps:
	@command -v chromium >/dev/null && test -x /usr/bin/chromedriver && command -v pdftoppm >/dev/null || \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver poppler-utils)

## make book: execute every notebook (parameter set SET, default paper) and build the HTML book. The paper build
## writes book/chapters, _build/results and _build/html; any other set keeps apart in _build/book-SET/ (chapters,
## results, run_log.json, and the HTML in _build/book-SET/root/_build/html), so it never writes over the paper build.
SETDIR := $(CURDIR)/_build/book-$(SET)
book: $(STAMP)
ifeq ($(SET),paper)
	$(BIN)/robotask run --all --set $(SET) --jobs 2
	$(MAKE) html
	$(BIN)/python -m robotask.book.lint _build/html
else
	ROBOTASK_RESULTS=$(SETDIR)/results $(BIN)/robotask run --all --set $(SET) --jobs 2 --out $(SETDIR)/chapters
	rm -rf $(SETDIR)/root && mkdir -p $(SETDIR)/root/book && ln -s $(CURDIR)/_config.yml $(CURDIR)/_toc.yml $(SETDIR)/root/
	for f in book/*; do test "$$f" = book/chapters || ln -s $(CURDIR)/$$f $(SETDIR)/root/book/; done
	@# the executed notebooks only: OUT/.run holds the converted sources, which the builder would read too
	mkdir $(SETDIR)/root/book/chapters && ln -s $(SETDIR)/chapters/*.ipynb $(SETDIR)/root/book/chapters/
	$(BIN)/python -m robotask.book.html $(SETDIR)/root --builder html --warningiserror --keep-going --quiet
	$(BIN)/python -m robotask.book.lint $(SETDIR)/root/_build/html
	@echo "book of set $(SET): $(SETDIR)/root/_build/html/index.html (the paper build is untouched)"
endif

html: $(STAMP)
	$(BIN)/python -m robotask.book.html . --builder html --warningiserror --keep-going --quiet  # plain text in a log

## make test: unit tests + every notebook at smoke scale through papermill, the smoke book built into
## _build/smoke/html, linted and opened in chromium (tests/test_notebooks_*.py) + nbval
## make test, in steps (two pytest workers where the work is independent):
##  0. the venv and the system packages, side by side, then `ruff check` of robotask/, tests/,
##  benchmarks/ and notebooks/;  1. unit tests;  2. every chapter at smoke scale through papermill (the chapters
##  that read other chapters' results, READERS, run after the rest);  3. nbval re-runs every
##  notebook but the readers (the twelve task pages among them) into _build/smoke/rerun, one notebook
##  per pytest worker, while the readers run, the book is built offline from the chapters, linted
##  and opened in a real browser (nbval's log is printed when it ends); the slowest notebook
##  (NBVAL_SLOW) starts first;  4. nbval re-runs the readers;  5. test_determinism compares both runs'
##  result files byte for byte, every chapter's (the home page writes none).
# The readers are defined once, in robotask/book/chapters.py (READERS = (...)), and read from there.
READERS := $(shell sed -n 's/^READERS = (\(.*\))$$/\1/p' robotask/book/chapters.py | tr -d '",')
READERS_K := $(shell echo $(READERS) | sed 's/ / or /g')
NBVAL_SLOW := 14_collections
NBVAL_FIRST = _build/smoke/$(NBVAL_SLOW).ipynb \
  $$(ls _build/smoke/*.ipynb | grep -v -E "$(NBVAL_SLOW)|$(shell echo $(READERS) | sed 's/ /|/g')")
NBVAL := ROBOTASK_PROGRESS=0 ROBOTASK_RESULTS=_build/smoke/rerun $(BIN)/python -m pytest --nbval-lax \
  -p no:cacheprovider --override-ini="testpaths=" --nbval-kernel-startup-timeout=300 --nbval-cell-timeout=1200
NBVAL_LOG := _build/smoke/nbval.log
test:
	$(MAKE) -j2 $(STAMP) sysdeps
	$(BIN)/ruff check robotask tests benchmarks notebooks
	rm -rf _build/smoke/rerun
	$(BIN)/python -m pytest -n 2 --ignore=tests/test_notebooks.py --ignore=tests/test_notebooks_lint.py \
	  --ignore=tests/test_notebooks_browser.py --ignore=tests/test_theme_modes.py --ignore=tests/test_determinism.py
	$(BIN)/python -m pytest -n 2 tests/test_notebooks.py -k "test_chapter_runs and not ($(READERS_K))"
	@echo "nbval of the chapters starts beside the readers and the book; its log: $(NBVAL_LOG)"
	$(NBVAL) -n 2 --dist loadfile $(NBVAL_FIRST) > $(NBVAL_LOG) 2>&1 & nbval=$$!; \
	$(BIN)/python -m pytest tests/test_notebooks.py -k "$(READERS_K) or test_book_builds" && \
	$(BIN)/python -m pytest tests/test_notebooks_lint.py tests/test_notebooks_browser.py tests/test_theme_modes.py; status=$$?; \
	wait $$nbval; nbval_status=$$?; cat $(NBVAL_LOG); test $$status -eq 0 -a $$nbval_status -eq 0
	$(NBVAL) $(foreach r,$(READERS),_build/smoke/$(r).ipynb)
	$(BIN)/python -m pytest -p no:cacheprovider tests/test_determinism.py

## make pdf: print the built book (DIR, default the paper build's _build/html) to one PDF (PDF, default
## DIR/../robotask.pdf) with headless chromium: book order, page numbers, links kept, no TeX. The smoke book:
## make pdf DIR=_build/smoke/html
DIR ?= _build/html
PDF ?= $(DIR)/../robotask.pdf
pdf: $(STAMP)
	$(BIN)/python -m robotask.book.html print $(DIR) $(PDF)

## make bench: time the study on this machine (results in _build/benchmarks/, shown by the book's
## reproduction page after the next `make book`); measures, asserts nothing about speed
bench: $(STAMP)
	$(BIN)/python benchmarks/retrieval.py --reference-trials 10
	$(BIN)/python benchmarks/episode_features.py --resolutions 128 512
	$(BIN)/python benchmarks/episode_suite.py

## make sync: regenerate the .ipynb twins (without outputs) from the percent sources
sync: $(STAMP)
	$(BIN)/jupytext --sync notebooks/*.py

## make lock: re-resolve requirements.in into requirements.txt
lock:
	rm -rf /tmp/robotask-lock && $(PYTHON) -m venv /tmp/robotask-lock
	/tmp/robotask-lock/bin/pip install --quiet -r requirements.in
	{ echo "# Pinned by 'make lock' from requirements.in (Python 3.11, CPU only). Do not edit by hand."; \
	  /tmp/robotask-lock/bin/pip freeze | sed -e 's/^torch==\(.*\)+cpu$$/torch==\1/'; } > requirements.txt

clean:
	rm -rf _build book/chapters/*.ipynb
